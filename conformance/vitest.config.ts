import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The suite itself, run by `docproc conformance` (which sets reporters, timeouts and the target through
// `provide`). Scenario files are *.suite.ts so the repository's own test projects never collect them.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['conformance/scenarios/*.suite.ts'],
    // Files mostly wait on the target (uploads, polling), so more of them than cores can run at once.
    pool: 'threads',
    maxWorkers: 2,
    minWorkers: 1,
    // Scenario files share no state but the loaded libraries and contract; loading those once per worker
    // instead of once per file halves a run against a fast target.
    isolate: false,
    // A retried check could turn a real, intermittent defect into a pass.
    retry: 0,
    sequence: { concurrent: false, shuffle: false },
    // Nothing to cache between runs against different targets.
    cache: false,
  },
});
