import { checks } from '../checks/index.js';
import { type Api, documentOf, type WireFullDocument } from './api.js';
import { describeResponse } from './describe.js';
import type { Exchange } from './exchange.js';

/** Growing polling delays: 50 ms, then half again each time, at most 1 s. */
export function* backoff(initialMs = 50, maxMs = 1000, factor = 1.5): Generator<number> {
  for (let delay = initialMs; ; delay = Math.min(maxMs, delay * factor)) yield delay;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a wait for a document ended. */
export interface Settled {
  doc: WireFullDocument;
  /** False when the document was still processing at the deadline. */
  settled: boolean;
  polls: number;
  last: Exchange;
}

/**
 * Polls a document with backoff until it leaves `processing` or `timeoutMs` passes; every poll must be a
 * 200 (`get.returns-document`). Judges nothing else, so contract-profile scenarios can use it too.
 * @example const { doc, settled } = await settle(api, 42, 60_000);
 */
export async function settle(api: Api, id: number, timeoutMs: number): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  const delays = backoff();
  for (let polls = 1; ; polls++) {
    const last = await api.get(id);
    api.judge.verify(checks.get.returnsDocument, last.status === 200, () => ({
      received: describeResponse(last),
      expected: `200 (document ${id} was uploaded by this run)`,
      exchange: last,
    }));
    const doc = documentOf(last);
    if (doc.status !== 'processing' || Date.now() >= deadline) return { doc, settled: doc.status !== 'processing', polls, last };
    await sleep(Math.min(delays.next().value as number, Math.max(1, deadline - Date.now())));
  }
}

/**
 * Waits for a document to leave `processing`; fails `lifecycle.reaches-terminal` when `timeoutMs` runs out.
 * @example const doc = await waitForTerminal(api, 42, 60_000);
 */
export async function waitForTerminal(api: Api, id: number, timeoutMs: number): Promise<WireFullDocument> {
  const { doc, settled, polls, last } = await settle(api, id, timeoutMs);
  api.judge.verify(checks.lifecycle.reachesTerminal, settled, () => ({
    received: `document ${id} still processing after ${timeoutMs} ms (${polls} polls, attempts ${doc.attempts})`,
    expected: `completed or failed within --timeout-ms ${timeoutMs}`,
    exchange: last,
  }));
  return doc;
}

/** Waits for several documents at once. */
export function waitForAll(api: Api, ids: number[], timeoutMs: number): Promise<WireFullDocument[]> {
  return Promise.all(ids.map((id) => waitForTerminal(api, id, timeoutMs)));
}
