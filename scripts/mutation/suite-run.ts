// One run of the conformance suite against a fresh reference core (the fetch mock over the memory store) in
// this process, behind a port: the checks that failed. Whichever core the sandbox hook (register-sandbox.mjs)
// sends `@docproc-kit/reference` to is the one judged; `MUTATION_VERBOSE=1` prints the suite's output.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runConformance, UsageError } from '@docproc-kit/conformance';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { createDocprocFetch } from '@docproc-kit/msw/fetch';
import { bridgeFetch } from '@docproc-kit/test-support/fetch-bridge.js';

// As the fetch mock's own conformance test (packages/msw/src/fetch-conformance.test.ts).
const KEYS = ['mutation-key', 'mutation-second-key'];
const MAX_FILE_BYTES = 65_536;
/** The model run's sequences are fixed, so a mutant is judged the same way every time. */
const MUTATION_SEED = 29;
/**
 * How long a document may take to leave `processing`, and a request to be answered: this core answers in
 * milliseconds and ends a run 200 ms after it starts, so 15 s is 75 times that even on a loaded machine,
 * and a mutant that strands documents or hangs a request is named by the checks that waited for it
 * (`lifecycle.reaches-terminal`, `http.responds`) within the run instead of timing out in Stryker after
 * minutes of waiting (the defaults, 60 s and 20 s, are fitted to remote services).
 */
const SETTLE_MS = 15_000;
/**
 * Checks the unmutated core fails here, so they tell no mutant apart: the fetch mock has no OCR engine
 * (packages/msw/README.md), and a legible scan completes with no text. Left out of every verdict.
 */
const FAILS_UNMUTATED: ReadonlySet<string> = new Set(['lifecycle.scan-read-by-ocr']);
/** What a run that stopped before judging everything is called among the failed checks. */
export const STOPPED = '(the run stopped)';

const verbose = process.env.MUTATION_VERBOSE === '1';
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

/**
 * One run against a fresh core, of the `full` profile or of its `only` areas: the ids of the checks that
 * failed (none when it passed).
 */
export async function failedChecks(only?: readonly string[]): Promise<Set<string>> {
  const docprocFetch = createDocprocFetch({
    baseUrl: 'http://docproc.mutation.test',
    apiKeys: KEYS,
    processingDelayMs: 200,
    maxFileBytes: MAX_FILE_BYTES,
  });
  const bridge = await bridgeFetch(docprocFetch, 'http://docproc.mutation.test');
  const dir = mkdtempSync(join(tmpdir(), 'docproc-mutation-'));
  const report = join(dir, 'report.json');
  try {
    const code = await runConformance(
      {
        baseUrl: bridge.baseUrl,
        apiKey: KEYS[0]!,
        secondApiKey: KEYS[1]!,
        profile: 'full',
        spec: bundledSpecPath,
        timeoutMs: SETTLE_MS,
        requestTimeoutMs: SETTLE_MS,
        maxFiles: 20,
        maxFileBytes: MAX_FILE_BYTES,
        strict: true,
        seed: MUTATION_SEED,
        maxRunS: 240,
        report,
        ...(only ? { only: [...only] } : {}),
      },
      verbose ? undefined : { stdout: quiet, stderr: quiet },
    );
    if (code === 0) return new Set();
    const { checks, unattributed } = JSON.parse(readFileSync(report, 'utf8')) as {
      checks: { id: string; outcome: string }[];
      unattributed: unknown[];
    };
    const failed = checks.filter((c) => c.outcome === 'failed').map((c) => c.id);
    const telling = failed.filter((id) => !FAILS_UNMUTATED.has(id));
    if (telling.length === 0 && failed.length > 0 && unattributed.length === 0) return new Set();
    // A failure outside any check (a crashed scenario) still fails the run: it is named as the run stopping.
    return new Set(telling.length ? telling : [STOPPED]);
  } catch (error) {
    // An unreachable target or a run stopped at its deadline: the mutant broke the core that far.
    if (verbose || !(error instanceof UsageError)) console.error(error);
    return new Set([STOPPED]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await bridge.close();
    await docprocFetch.close();
  }
}
