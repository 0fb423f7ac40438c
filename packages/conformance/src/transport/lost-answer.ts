import type { TransportSettings } from '../definitions/transport-settings.js';
import type { PreparedRequest } from './http-types.js';
import { proxyShown } from './proxy.js';
import type { RawAnswer } from './transport.js';

/** An attempt that got no answer (as opposed to an HTTP answer). */
type NoAnswer = Extract<RawAnswer, { error: string }>;

/**
 * Whether an answer was lost on the way rather than never made: the connection was reset or closed empty.
 * Not a timeout (the target is slow or hung, which the run gate judges) nor a proxy's own refusal.
 */
export function lostOnTheWay(answer: RawAnswer): answer is NoAnswer {
  return 'error' in answer && !answer.timedOut && !answer.proxyRefused;
}

/** What sending a request again showed of the hop that lost its answer: the answer (or why none came), and what to say of it. */
export interface HopCheck {
  answer: RawAnswer;
  /** Said of the hops: a warning when the answer arrived the other way, a failure's note when it did not. */
  said: string;
}

const how = (answer: NoAnswer) => `${answer.error}${answer.sentWhole ? ' after the whole request was sent' : ''}`;
// A success the proxy lost was made once already: the target may hold what the request made twice.
const twice = (status: number) => (status < 300 ? ` (sent more than once, the target may hold what it made twice)` : '');

/**
 * Sends a request whose answer was lost through the forward proxy `proxy` (`lost`: reset, or closed empty)
 * once more, to tell which hop lost it: straight to the target, without the proxy; when the target cannot
 * be reached that way (a network where only the proxy gets out), through the proxy again. `send` sends on a
 * socket that reads while it writes, so an answer the target gives before it has read the whole body counts.
 * @example const { answer, said } = await checkHops(prepared, lost, proxy, transport, earlyAnswer);
 */
export async function checkHops(
  prepared: PreparedRequest,
  lost: NoAnswer,
  proxy: string,
  transport: TransportSettings,
  send: (prepared: PreparedRequest, transport?: TransportSettings) => Promise<RawAnswer>,
): Promise<HopCheck> {
  const shown = proxyShown(proxy);
  const direct = await send(prepared, { ...transport, proxy: {} });
  if (!('error' in direct))
    return {
      answer: direct,
      said: `the proxy ${shown} lost the target's ${direct.status} (${how(lost)}): sent directly, without the proxy, it arrived${twice(direct.status)}. A target that answers before it has read the whole body and closes makes a proxy pass a reset on instead of the answer; one that reads the rest before closing (nginx's lingering close) keeps it`,
    };
  if (!direct.unreachable)
    return {
      answer: direct,
      said: `sent directly too, without the proxy ${shown}, it got no answer either (${how(direct)}): the target itself drops the answer`,
    };
  const again = await send(prepared);
  if (!('error' in again))
    return {
      answer: again,
      said: `the connection through the proxy ${shown} ended without an answer (${how(lost)}); sent again through it, the target's ${again.status} arrived (the target cannot be reached without the proxy to tell which hop lost it: ${direct.error})${twice(again.status)}`,
    };
  return {
    answer: again,
    said: `sent again through the proxy ${shown} (the target cannot be reached without it: ${direct.error}), it got no answer either (${how(again)})`,
  };
}
