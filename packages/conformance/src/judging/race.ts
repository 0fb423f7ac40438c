import type { AnyCheck, Check } from '../checks/index.js';
import type { Exchange } from '../definitions/exchange.js';
import { proxyFor } from '../definitions/transport-settings.js';
import { amendFailure, ConformanceFailure, type FailureDetails } from '../definitions/verdict.js';
import type { Http, PreparedRequest, RawAnswer, SendOptions } from '../transport/http.js';
import { requestBytes } from '../transport/race/raw-http.js';
import { releaseOnce } from '../transport/race/release.js';
import { retryAfterMs } from '../transport/transient.js';
import type { HttpAnswer } from '../transport/transport.js';
import type { Judge } from './judge.js';

/** One request of a race: when its last byte went out, and what came back. */
export interface RaceEntry {
  prepared: PreparedRequest;
  /** When its last byte was written, in ms after the first one's. */
  releasedMs: number;
  /** When its answer was complete, in ms after the first release. */
  answeredMs?: number;
  exchange?: Exchange;
  /** Why no checked exchange came back (no answer, or an answer a response check refused). */
  failure?: ConformanceFailure;
  /**
   * What turned this racer away: a transient status (429, 503, a gateway's 502/504; it never reached the
   * service), or the run's own forward proxy closing its connection without an answer.
   */
  turnedAway?: number | string;
}

/**
 * What becomes of a racer a gateway turned away: `exclude` leaves it out (a late request would not race,
 * and could rightly get another answer, as a retry once the run it lost to has ended); `resend` sends it
 * again alone (an upload still makes its own documents, or replays its key's).
 */
export type TurnedAwayPolicy = 'exclude' | 'resend';

const retryAfterOf = (answer: RawAnswer) => ('error' in answer ? 0 : (retryAfterMs(answer.headers) ?? 0));

/** Requests released together, and how to tell what happened. */
export interface Race {
  entries: RaceEntry[];
  /** When the first last byte went out (`process.hrtime.bigint()`). */
  releasedAt: bigint;
  /** The exchanges that came back (in request order), for the race's own judgement. */
  exchanges: Exchange[];
  /** Who was released when and what each got, for a failure's note. */
  schedule(describe?: (exchange: Exchange) => string): string;
  /** A shell script that sends the requests at once (as near together as curl can). */
  script(): string;
  /** Records a pass of `check` when `holds`, else fails it with the schedule and the script. */
  verify(check: AnyCheck, holds: boolean, details: () => FailureDetails): void;
  /** Hands `observation` to the check's own judge; a finding fails it, shown by `exchange`, with the schedule and the script. */
  check<I>(check: Check<I>, observation: I, exchange?: Exchange): void;
}

/** An answer in a few words: the status and the problem code, the document's state, or the ids an upload made. */
export function brief(exchange: Exchange): string {
  const body = exchange.json as
    | { code?: unknown; status?: unknown; attempts?: unknown; documents?: Array<{ document_id?: unknown }> }
    | undefined;
  if (exchange.status >= 400) return `${exchange.status} ${String(body?.code ?? exchange.mediaType)}`;
  if (Array.isArray(body?.documents)) return `${exchange.status} ids ${body.documents.map((d) => d.document_id).join(', ')}`;
  if (body?.status !== undefined) return `${exchange.status} ${String(body.status)}, attempts ${String(body.attempts)}`;
  return String(exchange.status);
}

/**
 * Sends `requests` so that they reach the target together: each on its own connection, written but its
 * last byte; then, once the target has had a moment to read them, every last byte in one synchronous
 * loop, so they land within a millisecond of each other. Every answer goes through the same response
 * checks as any other exchange; a failed one is kept on its entry and thrown once the race is judged.
 * @example const race = await releaseTogether(kit.http, [1, 2, 3].map(() => ({ operation: 'retryDocument', params: { document_id: 7 } })), 30_000);
 */
export async function releaseTogether(
  http: Http<Judge>,
  requests: SendOptions[],
  timeoutMs: number,
  { turnedAway = 'exclude' }: { turnedAway?: TurnedAwayPolicy } = {},
): Promise<Race> {
  const prepared = requests.map((o) => http.prepare(o));
  const bytes = prepared.map((p) => requestBytes(p, http.transport));
  let round = await releaseOnce(http, prepared, bytes, timeoutMs);
  // Every racer turned away: nothing changed anywhere ("Nothing was changed"), so the race is run again.
  for (let resends = 1, waitedMs = 0; round.raw.every((a) => http.transient(a)); resends++) {
    const longest = round.raw.reduce((a, b) => (retryAfterOf(b) > retryAfterOf(a) ? b : a)) as HttpAnswer;
    waitedMs += await http.waitOut(prepared[round.raw.indexOf(longest)]!, longest, resends, waitedMs);
    round = await releaseOnce(http, prepared, bytes, timeoutMs);
  }
  const { raw, released, finished, releasedAt } = round;
  // A forward proxy relaying plain http parses every racer itself, and may close one without relaying any
  // answer when several arrive at once (tinyproxy does, now and then): that racer is the proxy's, not the
  // service's, and is turned away like one answered 429.
  const dropped = raw.map((answer, i) => {
    const url = new URL(prepared[i]!.url);
    const relayed = url.protocol === 'http:' && proxyFor(url, http.transport) !== undefined;
    return relayed && 'error' in answer && !answer.timedOut && !answer.proxyRefused;
  });
  // Some racers turned away: those never reached the service. A resend-safe race sends each again on its
  // own (it still makes its own answer); otherwise they are left out, and the race is judged on those that arrived.
  const resent = await Promise.all(
    raw.map(async (answer, i) => {
      if ((!http.transient(answer) && !dropped[i]) || turnedAway !== 'resend') return undefined;
      if (http.transient(answer)) await http.waitOut(prepared[i]!, answer, 1, 0);
      try {
        return { exchange: await http.dispatch(prepared[i]!) };
      } catch (error) {
        if (!(error instanceof ConformanceFailure)) throw error;
        return { failure: error };
      }
    }),
  );
  const entries: RaceEntry[] = prepared.map((p, i) => {
    const answer = raw[i]!;
    const entry: RaceEntry = {
      prepared: p,
      releasedMs: released[i] ?? 0,
      ...(finished[i] !== undefined ? { answeredMs: finished[i] } : {}),
    };
    if (http.transient(answer) || dropped[i]) {
      entry.turnedAway = 'error' in answer ? `the forward proxy closed the connection without an answer: ${answer.error}` : answer.status;
      Object.assign(entry, resent[i] ?? {});
      return entry;
    }
    try {
      entry.exchange = http.receive(p, answer);
    } catch (error) {
      if (!(error instanceof ConformanceFailure)) throw error;
      entry.failure = error;
    }
    return entry;
  });
  const withSchedule = (judge: () => void) => {
    try {
      judge();
    } catch (error) {
      if (!(error instanceof ConformanceFailure)) throw error;
      throw amendFailure(error, { note: [error.record.note, race.schedule()].filter(Boolean).join('\n'), curl: race.script() });
    }
  };
  const race: Race = {
    entries,
    releasedAt,
    exchanges: entries.flatMap((e) => (e.exchange ? [e.exchange] : [])),
    schedule(describe = brief) {
      const spread = Math.max(...entries.map((e) => e.releasedMs));
      const targets = [...new Set(entries.map((e) => `${e.prepared.request.method} ${new URL(e.prepared.url).pathname}`))];
      return [
        `${entries.length} requests (${targets.join(', ')}), each written but its last byte; the last bytes went out within ${spread.toFixed(3)} ms:`,
        ...entries.map(
          (e, i) =>
            `  #${i + 1} at +${e.releasedMs.toFixed(3)} ms -> ${e.turnedAway ? `turned away (${e.turnedAway}${typeof e.turnedAway === 'number' ? ', never reached the service' : ''})${e.exchange ? `; sent again alone: ${describe(e.exchange)}` : ''}` : ''}${
              e.turnedAway && !e.exchange
                ? ''
                : e.exchange
                  ? (e.turnedAway ? '' : describe(e.exchange))
                  : (e.failure?.record.received ?? '?')
            }${e.answeredMs !== undefined ? ` (answered at +${e.answeredMs.toFixed(1)} ms)` : ''}`,
        ),
      ].join('\n');
    },
    script() {
      return [
        '#!/bin/sh',
        `# ${entries.length} requests at once. curl cannot hold back each last byte as the suite did, so these land`,
        '# a few milliseconds apart, not within one: repeat it to see the race.',
        ...entries.map((e) => `${e.prepared.reproduce()} &`),
        'wait',
      ].join('\n');
    },
    verify(check, holds, details) {
      withSchedule(() => http.judge.verify(check, holds, details));
    },
    check(check, observation, exchange) {
      withSchedule(() => http.judge.check(check, observation, exchange));
    },
  };
  // An answer a response check refused fails the race as that check, with the schedule beside it.
  const refused = entries.find((e) => e.failure);
  if (refused?.failure) {
    throw amendFailure(refused.failure, {
      note: [refused.failure.record.note, race.schedule()].filter(Boolean).join('\n'),
      curl: refused.failure.record.noResponse !== undefined ? refused.failure.record.curl : race.script(),
    });
  }
  return race;
}
