import { configDefaults, defineConfig } from 'vitest/config';

// One project per part of the kit, so `npx vitest --project server` runs just that part.
// conformance/scenarios/ is NOT collected here: those files are the conformance suite itself and need a
// target; `docproc conformance` runs them, and conformance/*.test.ts prove them against real targets.
//
// Two tiers (package.json's scripts): `npm test` runs every project but `proofs` and `packaging`, which
// `npm run test:slow` runs (test/support/tiers.test.ts keeps each project in exactly one). Those two are
// about half the CPU time of the whole run, most of it fixed cost: 53 runs of the suite, each a vitest
// run whose worker loads its libraries again, and two `npm install`s of ~390 packages from the tarballs.
//
// Every project sets the time one of its tests may take, fitted to what its tests wait on, instead of
// vitest's 5 s default (too short for anything that spawns a process on a busy 2-core machine); tests
// that wait longer say so themselves. Two files run at once (vitest's default on 2 cores is one): many
// tests wait on servers, processes and disks, and the whole run went from 441 s to 331 s. Files of a
// project share their worker's loaded modules (isolate: false; 302 s -> 283 s, a seventh less CPU):
// no test mocks modules or stubs globals, and every test builds its own server, store and temp dir.
const PROOFS = ['conformance/proofs/mutations.test.ts', 'conformance/proofs/benign-variants.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default'],
    maxWorkers: 2,
    minWorkers: 1,
    isolate: false,
    // Tests that start the CLI as a process run dist/ (rebuilt here first whenever src/ changed).
    globalSetup: ['test/support/fresh-build.ts'],
    projects: [
      // Contract lint and validation, generated-type drift (spawns TypeScript), client generators (spawned), fixtures.
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['openapi/**/*.test.ts', 'src/contract/**/*.test.ts', 'scripts/**/*.test.ts', 'fixtures/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      // The client against a real Prism process and a real reference server.
      { extends: true, test: { name: 'client', include: ['src/client/**/*.test.ts'], testTimeout: 30_000 } },
      // The CLI as a real process (tsx start-up alone is seconds on a busy machine).
      { extends: true, test: { name: 'cli', include: ['src/commands/**/*.test.ts', 'src/*.test.ts'], testTimeout: 60_000 } },
      // The reference server in-process on a real port, with real extraction (OCR of real scans).
      { extends: true, test: { name: 'server', include: ['src/http/**/*.test.ts', 'src/reference/**/*.test.ts'], testTimeout: 30_000 } },
      // The conformance suite run against real targets (each run a real CLI process), and its output when they fail badly.
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['conformance/*.test.ts', 'conformance/kit/**/*.test.ts', 'conformance/report/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROOFS],
          testTimeout: 120_000,
        },
      },
      // The proofs of the suite itself: 48 broken servers and 5 allowed variants (slow tier).
      { extends: true, test: { name: 'proofs', include: PROOFS, testTimeout: 300_000 } },
      // Crashes, signals, slow clients, hostile files, locks, failed writes: real processes and real disks.
      {
        extends: true,
        test: {
          name: 'reliability',
          include: ['test/**/*.test.ts', 'bench/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/packaging/**', 'test/replicas/**'],
          testTimeout: 60_000,
        },
      },
      // Three `docproc serve` processes on one throwaway PostgreSQL behind a real nginx: the conformance suite,
      // a replica killed mid-processing, the database stopped and back (slow tier: minutes of real processes).
      { extends: true, test: { name: 'replicas', include: ['test/replicas/**/*.test.ts'], testTimeout: 300_000 } },
      // Packs the kit and the client, installs the tarballs into scratch projects and runs them (slow tier: npm install).
      { extends: true, test: { name: 'packaging', include: ['test/packaging/**/*.test.ts'], testTimeout: 300_000 } },
    ],
  },
});
