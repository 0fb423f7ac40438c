import { configDefaults, defineConfig } from 'vitest/config';

// One project per part of the kit, so `npx vitest --project server` runs just that part.
// conformance/suite/ is NOT collected here: those files are the conformance suite itself and need a
// target; `docproc conformance` runs them, and conformance/*.test.ts prove them against real targets.
export default defineConfig({
  test: {
    reporters: ['default'],
    // Most test files wait on servers, processes and disks rather than compute, so two run side by side
    // even on a 2-core machine (vitest's default there is one); every waiting test has its own timeout.
    maxWorkers: 2,
    minWorkers: 1,
    projects: [
      { extends: true, test: { name: 'contract', include: ['openapi/**/*.test.ts', 'src/contract/**/*.test.ts', 'scripts/**/*.test.ts', 'fixtures/**/*.test.ts'] } },
      { extends: true, test: { name: 'client', include: ['src/client/**/*.test.ts'] } },
      { extends: true, test: { name: 'cli', include: ['src/commands/**/*.test.ts', 'src/*.test.ts'] } },
      { extends: true, test: { name: 'server', include: ['src/server/**/*.test.ts'] } },
      { extends: true, test: { name: 'conformance', include: ['conformance/*.test.ts', 'conformance/lib/**/*.test.ts'] } },
      { extends: true, test: { name: 'reliability', include: ['test/**/*.test.ts', 'bench/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/packaging/**'] } },
      // Packs the kit and the client, installs the tarballs into scratch projects and runs them (slowest: npm install).
      { extends: true, test: { name: 'packaging', include: ['test/packaging/**/*.test.ts'] } },
    ],
  },
});
