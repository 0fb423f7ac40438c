// The test Stryker runs for each mutant: the reference core (the fetch mock over the memory store) in this
// process, behind a port, judged by the full conformance profile. Exit 0: the suite passed, the mutant
// survived; 1: the suite saw it. Run with the sandbox hook (register-sandbox.mjs) so the core is the mutated
// copy; `MUTATION_VERBOSE=1` prints the suite's output.
//
// A failing run is run again on a fresh core, and the mutant counts as killed only when some check failed
// both times (or both runs stopped): on a busy machine a timing check can fail once against the unmutated
// core (a retry race answered after a 200 ms run ended), and such a failure must not count as a kill.
//
// Each mutant's verdict is appended to the kills file (kills.ts), with the checks that failed in both runs, so
// `npm run mutation` can say which kills only the differential oracle's checks made.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runConformance, UsageError } from '@docproc-kit/conformance';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { createDocprocFetch } from '@docproc-kit/msw/docproc-fetch.js';
import { bridgeFetch } from '@docproc-kit/test-support/fetch-bridge.js';
import { recordVerdict } from './kills.js';

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
const STOPPED = '(the run stopped)';

const verbose = process.env.MUTATION_VERBOSE === '1';
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

/** One full run against a fresh core: the ids of the checks that failed (none when it passed). */
async function failedChecks(): Promise<Set<string>> {
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

const first = await failedChecks();
const second = first.size > 0 ? await failedChecks() : new Set<string>();
const both = [...first].filter((id) => second.has(id));
const killed = both.length > 0;
if (first.size > 0) console.error(killed ? `killed by ${both.join(', ')}` : `not killed: ${[...first].join(', ')} failed once only`);
recordVerdict({ failedBoth: both, failedOnce: [...new Set([...first, ...second])].filter((id) => !both.includes(id)) });
process.exit(killed ? 1 : 0);
