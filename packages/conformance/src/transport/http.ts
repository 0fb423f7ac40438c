import { DIRECT } from '../definitions/transport-settings.js';
import type { AnswerJudge, Http, HttpOptions } from './http-types.js';
import { createPrepare } from './prepare-request.js';
import { createReceive } from './receive-answer.js';
import { createSendLoop } from './send-loop.js';
import { createPacer, createRunGate, TRANSIENT_STATUSES } from './transient.js';
import type { HttpAnswer } from './transport.js';
import { createWaitOut } from './wait-out.js';

export type { AnswerJudge, Http, HttpOptions, PreparedRequest, QueryInput, SendOptions } from './http-types.js';
export { keyVariant, swapCase } from './prepare-request.js';
export type { RawAnswer } from './transport.js';

/** The body cap without `--max-body-bytes` when nothing is known of the per-file limit (the CLI derives a run's own: `bodyCapFor`). */
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
/** How long one request waits out transient answers without `--max-wait-s`. */
export const DEFAULT_MAX_WAIT_MS = 60_000;

/**
 * Creates the recording HTTP layer over fetch: requests built (prepare-request.ts), sent until they have an
 * answer to judge (send-loop.ts, with the 429/503 policy of wait-out.ts), and every answer judged before
 * the scenario sees it (receive-answer.ts).
 * @example const http = createHttp({ baseUrl, keys: { primary: key }, contract, strict: false, requestTimeoutMs: 30000, requestIdPrefix: 'conformance-run1-list', reproDir, judge });
 */
export function createHttp<J extends AnswerJudge>(options: HttpOptions<J>): Http<J> {
  const { judge } = options;
  const transport = options.transport ?? DIRECT;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const gate = options.gate ?? createRunGate({});
  const pacer = options.pacer ?? createPacer(undefined, 1);
  const prepare = createPrepare(options, transport);
  const receive = createReceive({ ...options, gate, transport });
  const waitOut = createWaitOut({
    judge,
    gate,
    maxWaitMs: options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
    seen: { contract: options.contract, strict: options.strict },
  });
  const dispatch = createSendLoop({ options, gate, pacer, maxBodyBytes, transport, receive, waitOut });
  return {
    judge,
    transport,
    prepare,
    dispatch,
    receive,
    send: (o) => dispatch(prepare(o)),
    gate,
    maxBodyBytes,
    pacer,
    waitOut,
    transient: (answer): answer is HttpAnswer => !('error' in answer) && TRANSIENT_STATUSES.has(answer.status),
  };
}
