import { checks } from '../checks/index.js';
import { describeResponse } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import { type Api, documentOf, type WireDocument, type WireFullDocument } from '../transport/api.js';
import type { Judge } from './judge.js';

/** Growing polling delays: 50 ms, then half again each time, at most 1 s. */
export function* backoff(initialMs = 50, maxMs = 1000, factor = 1.5): Generator<number> {
  for (let delay = initialMs; ; delay = Math.min(maxMs, delay * factor)) yield delay;
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * 200 (`get.returns-document`) of the document asked for (in the full profile, `get.matches-upload` as a
 * precondition: a target that answers another document for this id is named, never a crash later).
 * Judges nothing else, so contract-profile scenarios can use it too.
 * @example const { doc, settled } = await settle(api, 42, 60_000);
 */
export async function settle(api: Api<Judge>, id: number, timeoutMs: number, sent?: WireDocument): Promise<Settled> {
  const deadline = Date.now() + timeoutMs;
  const delays = backoff();
  for (let polls = 1; ; polls++) {
    // The deadline is judged by when the read was sent, not when its answer was handled: a runner that
    // stalled in between never blames the target for a document it may have finished meanwhile.
    const sentAt = Date.now();
    const last = await api.get(id);
    api.judge.verify(checks.get.returnsDocument, last.status === 200, () => ({
      received: describeResponse(last),
      expected: `200 (document ${id} was uploaded by this run)`,
      exchange: last,
    }));
    const doc = documentOf(last);
    if (api.judge.profile === 'full') {
      const asked = sent ?? ({ document_id: id } as WireDocument);
      const finding = checks.get.matchesUpload.judge!({
        when: `read of id ${id}`,
        read: doc,
        sent: asked,
        fields: sent ? ['document_id', 'filename'] : ['document_id'],
      });
      api.judge.require(checks.get.matchesUpload, finding === undefined, () => ({ ...finding!, exchange: last }));
    }
    if (doc.status !== 'processing' || sentAt >= deadline) return { doc, settled: doc.status !== 'processing', polls, last };
    await sleep(Math.min(delays.next().value as number, Math.max(1, deadline - Date.now())));
  }
}

/**
 * Waits for a document to leave `processing`; fails `lifecycle.reaches-terminal` when `timeoutMs` runs out.
 * @example const doc = await waitForTerminal(api, 42, 60_000);
 */
export async function waitForTerminal(api: Api<Judge>, id: number, timeoutMs: number, sent?: WireDocument): Promise<WireFullDocument> {
  const { doc, settled, polls, last } = await settle(api, id, timeoutMs, sent);
  api.judge.check(checks.lifecycle.reachesTerminal, { doc, settled, polls, timeoutMs }, last);
  return doc;
}

/** Waits for several uploaded documents at once; each read must be the document the upload returned. */
export function waitForAll(api: Api<Judge>, docs: WireDocument[], timeoutMs: number): Promise<WireFullDocument[]> {
  return Promise.all(docs.map((d) => waitForTerminal(api, d.document_id, timeoutMs, d)));
}
