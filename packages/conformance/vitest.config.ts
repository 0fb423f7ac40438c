import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The model run is the longest file by far (it runs sequences for --model-time-ms): it starts first, so the
 * other files run beside it on the other worker instead of after it.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const longest = (f: TestSpecification) => (f.moduleId.endsWith('/model.suite.ts') ? 0 : 1);
    return [...sorted].sort((a, b) => longest(a) - longest(b));
  }
}

// The suite itself, run by `docproc conformance` (which sets reporters, timeouts and the target through
// `provide`). Scenario files are *.suite.ts so the repository's own test projects never collect them.
// Inside the repository the other packages are sources (their `docproc-source` export condition); an
// installed package reads their compiled dist/.
const inRepository = existsSync(fileURLToPath(new URL('../contract/src', import.meta.url)));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { conditions: inRepository ? ['docproc-source'] : [] },
  ssr: { resolve: { conditions: inRepository ? ['docproc-source'] : [] } },
  test: {
    include: ['src/scenarios/*.suite.ts'],
    // Files mostly wait on the target (uploads, polling), so more of them than cores can run at once.
    pool: 'threads',
    maxWorkers: 2,
    minWorkers: 1,
    // Scenario files share no state but the loaded libraries and contract; loading those once per worker
    // instead of once per file halves a run against a fast target.
    isolate: false,
    // A retried check could turn a real, intermittent defect into a pass.
    retry: 0,
    sequence: { concurrent: false, shuffle: false, sequencer: LongestFirst },
    // Nothing to cache between runs against different targets.
    cache: false,
  },
});
