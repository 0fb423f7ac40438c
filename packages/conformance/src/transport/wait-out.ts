import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { AnswerJudge, PreparedRequest } from './http-types.js';
import { sleep } from './polling.js';
import { backoffMs, type RunGate, RunStopped, retryAfterMs, TargetUnavailable } from './transient.js';
import type { HttpAnswer } from './transport.js';

/**
 * The 429/503 policy ("wait `Retry-After` seconds, then retry. Nothing was changed.", the contract's 429 and
 * 503, and a gateway's 502/504): records a transient answer to `prepared` as a resend and waits what it asks
 * (its `resends`-th; `waitedMs` already spent on this request), or a jittered backoff without Retry-After.
 * Throws {@link TargetUnavailable} once the request's wait budget is spent (and marks the whole run so), and
 * {@link RunStopped} when the wait would pass the run's deadline. Resolves to the wait.
 * @example waitedMs += await waitOut(prepared, answer, ++resends, waitedMs);
 */
export function createWaitOut(options: {
  judge: AnswerJudge;
  gate: RunGate;
  maxWaitMs: number;
  seen: { contract: Contract; strict: boolean };
}) {
  const { judge, gate, maxWaitMs, seen } = options;
  return async (prepared: PreparedRequest, answer: HttpAnswer, resends: number, waitedMs: number): Promise<number> => {
    // "Not now" is an answer: the target is alive.
    gate.answered(`${prepared.request.method} ${new URL(prepared.url).pathname}`, answer.endedAt);
    judge.transient?.(prepared, answer, seen);
    const asked = retryAfterMs(answer.headers);
    const waitMs = asked ?? backoffMs(resends);
    const what = `${prepared.request.method} ${prepared.request.url}`;
    if (waitMs > gate.remainingMs()) throw new RunStopped(`the run reached its deadline (--max-run-s) waiting out a ${answer.status}`);
    if (waitedMs + waitMs > maxWaitMs) {
      const message = `target unavailable: ${what} got only transient answers (last ${answer.status}${
        asked !== undefined ? `, Retry-After ${answer.headers.get('retry-after')}` : ''
      }) for ${Math.round(waitedMs / 1000)} s, and --max-wait-s is ${Math.round(maxWaitMs / 1000)}`;
      gate.markUnavailable(message);
      throw new TargetUnavailable(message);
    }
    judge.resent({
      request: what,
      ...(prepared.requestId !== undefined ? { requestId: prepared.requestId } : {}),
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
      waitMs,
      at: Date.now(),
    });
    judge.coverage(prepared.target.coverageKey, answer.status);
    await sleep(waitMs);
    return waitMs;
  };
}
