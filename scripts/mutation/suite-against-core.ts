// The test Stryker runs for each mutant: the reference core (the fetch mock over the memory store) in this
// process, behind a port, judged by the full conformance profile. Exit 0: the suite passed, the mutant
// survived; anything else: the suite saw it. Run with the sandbox hook (register-sandbox.mjs) so the core is
// the mutated copy; `MUTATION_VERBOSE=1` prints the suite's output.
import { Writable } from 'node:stream';
import { runConformance, UsageError } from '@docproc-kit/conformance';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { createDocprocFetch } from '@docproc-kit/msw/docproc-fetch.js';
import { bridgeFetch } from '../../test/support/fetch-bridge.js';

// As the fetch mock's own conformance test (packages/msw/src/fetch-conformance.test.ts).
const KEYS = ['mutation-key', 'mutation-second-key'];
const MAX_FILE_BYTES = 65_536;
/** The model run's sequences are fixed, so a mutant is judged the same way every time. */
export const MUTATION_SEED = 29;

const verbose = process.env.MUTATION_VERBOSE === '1';
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

const docprocFetch = createDocprocFetch({ apiKeys: KEYS, processingDelayMs: 200, maxFileBytes: MAX_FILE_BYTES });
const bridge = await bridgeFetch(docprocFetch, 'http://docproc.mutation.test');
let code: number;
try {
  code = await runConformance(
    {
      baseUrl: bridge.baseUrl,
      apiKey: KEYS[0]!,
      secondApiKey: KEYS[1]!,
      profile: 'full',
      spec: bundledSpecPath,
      // A mutant that leaves documents processing or hangs a request is seen sooner than a real target would be.
      timeoutMs: 10_000,
      requestTimeoutMs: 10_000,
      maxFiles: 20,
      maxFileBytes: MAX_FILE_BYTES,
      strict: true,
      seed: MUTATION_SEED,
      maxRunS: 180,
    },
    verbose ? undefined : { stdout: quiet, stderr: quiet },
  );
} catch (error) {
  // An unreachable target or a run stopped at its deadline: the mutant broke the core that far.
  if (verbose || !(error instanceof UsageError)) console.error(error);
  code = 2;
}
await bridge.close();
await docprocFetch.close();
process.exit(code);
