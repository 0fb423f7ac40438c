import { configDefaults, defineConfig } from 'vitest/config';

// One project per part of the kit, so `npx vitest --project server` runs just that part.
// packages/conformance/src/scenarios/ is NOT collected here: those files are the conformance suite itself
// and need a target; `docproc conformance` runs them, and packages/conformance/test/ proves them against
// real targets.
//
// The packages import each other by name; inside the repository their `docproc-source` export condition
// points at the TypeScript sources, so no test ever runs a stale build of another package.
//
// Two tiers (package.json's scripts): `npm test` runs every project but `proofs`, `packaging`,
// `hostile-load`, `replicas` and `deployed`, which `npm run test:slow` runs (test/architecture/tiers.test.ts keeps
// each project in exactly one). Those are most of the CPU time of the whole run: a run of the suite per
// broken server, each loading its libraries again, the model run's self-test
// (thousands of sequences against the reference server, CPU-bound for minutes), `npm install`s from the
// tarballs, minutes of extraction of hostile PDFs, and suite runs through nginx and proxies.
//
// Every project sets the time one of its tests may take, fitted to what its tests wait on, instead of
// vitest's 5 s default (too short for anything that spawns a process on a busy 2-core machine); tests
// that wait longer say so themselves. Two files run at once (vitest's default on 2 cores is one) because
// many tests wait on servers, processes and disks. Files of a project share their worker's loaded modules
// (isolate: false): no test mocks modules or stubs globals, and every test builds its own server, store
// and temp dir.
const PROOFS = [
  'packages/conformance/proofs/mutations.test.ts',
  'packages/conformance/proofs/benign-variants.test.ts',
  'packages/conformance/proofs/hostile-targets.test.ts',
  // The whole full profile against a service answering 15% of its requests 429/503: minutes of waits.
  'packages/conformance/proofs/transient-answers.test.ts',
  'packages/conformance/proofs/oracle-self-test.test.ts',
  'packages/conformance/proofs/realistic-defects.test.ts',
  'packages/conformance/proofs/clean-room.test.ts',
  'packages/conformance/proofs/slow-targets.test.ts',
  'packages/conformance/src/model/model.test.ts',
  'packages/conformance/src/oracle/oracle.test.ts',
  'packages/docproc-kit/src/proxy/proxy-proofs.test.ts',
  // BASE's suite run against the reference server and a mutant of it, by `docproc contract diff --behaviour`.
  'packages/docproc-kit/src/commands/contract-behaviour.test.ts',
  // A real mutation worker on a real instrumented file: minutes of suite runs.
  'test/mutation/worker.test.ts',
];

// What is generated from the contract, each test spawning TypeScript or a generator (tens of seconds), kept
// apart so the contract project itself stays a quick check of the document and its values.
const GENERATORS = ['packages/contract/openapi/generators.test.ts', 'packages/contract/scripts/generate.test.ts'];

const SOURCE_CONDITIONS = ['docproc-source'];

export default defineConfig({
  resolve: { conditions: SOURCE_CONDITIONS },
  ssr: { resolve: { conditions: SOURCE_CONDITIONS } },
  test: {
    reporters: ['default'],
    maxWorkers: 2,
    minWorkers: 1,
    isolate: false,
    // Tests that start the CLI as a process run dist/ (rebuilt here first whenever src/ changed).
    globalSetup: ['test/support/fresh-build.ts'],
    projects: [
      // The contract document, its values and its fixtures (quick: nothing is spawned).
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['packages/contract/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...GENERATORS],
          testTimeout: 60_000,
        },
      },
      // The generated types and values checked against the contract, and the client generators run on it.
      { extends: true, test: { name: 'generated', include: GENERATORS, testTimeout: 90_000 } },
      // The client against a real Prism process and a real reference server.
      { extends: true, test: { name: 'client', include: ['packages/client/src/**/*.test.ts'], testTimeout: 30_000 } },
      // The CLI as a real process (tsx start-up alone is seconds on a busy machine).
      {
        extends: true,
        test: {
          name: 'cli',
          include: ['packages/docproc-kit/src/commands/**/*.test.ts', 'packages/docproc-kit/src/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROOFS],
          testTimeout: 60_000,
        },
      },
      // The reference server in-process on a real port, with real extraction (OCR of real scans).
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/reference/src/**/*.test.ts', 'packages/docproc-kit/src/*/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'packages/docproc-kit/src/commands/**', ...PROOFS],
          testTimeout: 30_000,
        },
      },
      // The in-process mocks (MSW handlers, the fetch mock) judged by the full conformance profile, and in Chromium.
      { extends: true, test: { name: 'in-process', include: ['packages/msw/src/**/*.test.ts'], testTimeout: 60_000 } },
      // The conformance suite run against real targets (each run a real CLI process), and its output when they fail badly.
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['packages/conformance/test/*.test.ts', 'packages/conformance/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROOFS],
          testTimeout: 120_000,
        },
      },
      // The proofs of the suite itself: every broken server (mutant-catalog.ts) and allowed variant (benign-variants.ts) (slow tier).
      { extends: true, test: { name: 'proofs', include: PROOFS, testTimeout: 300_000 } },
      // Crashes, signals, slow clients, hostile files, locks, failed writes: real processes and real disks.
      {
        extends: true,
        test: {
          name: 'reliability',
          include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [
            ...configDefaults.exclude,
            'test/packaging/**',
            'test/hostile-load/**',
            'test/replicas/**',
            'test/deployed/**',
            ...PROOFS,
          ],
          testTimeout: 60_000,
        },
      },
      // Hostile PDFs from two tenants at once on a real server, its process tree measured (slow tier: minutes of extraction).
      { extends: true, test: { name: 'hostile-load', include: ['test/hostile-load/**/*.test.ts'], testTimeout: 300_000 } },
      // Three `docproc serve` processes on one throwaway PostgreSQL behind a real nginx: the conformance suite,
      // a replica killed mid-processing, the database stopped and back (slow tier: minutes of real processes).
      { extends: true, test: { name: 'replicas', include: ['test/replicas/**/*.test.ts'], testTimeout: 300_000 } },
      // The conformance suite against the reference server as deployed: HTTPS from nginx with a private CA,
      // real HTTP proxies (tinyproxy; Squid with Debian's default squid.conf, refusing, wanting a password), a
      // gateway that wants a header, a target that never finishes an answer (slow tier: a dozen runs of the suite).
      { extends: true, test: { name: 'deployed', include: ['test/deployed/**/*.test.ts'], testTimeout: 300_000 } },
      // Packs the kit and the client, installs the tarballs into scratch projects and runs them (slow tier: npm install).
      { extends: true, test: { name: 'packaging', include: ['test/packaging/**/*.test.ts'], testTimeout: 300_000 } },
    ],
  },
});
