import { checks } from '../checks/index.js';
import type { Exchange } from '../definitions/exchange.js';
import { type Api, documentOf, type WireDocument, type WireFullDocument } from '../transport/api.js';
import { pollUntil } from '../transport/polling.js';
import type { Judge } from './judge.js';

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
  const read = async () => {
    const last = await api.get(id);
    api.judge.check(
      checks.get.returnsDocument,
      { kind: 'answer', exchange: last, status: 200, why: `document ${id} was uploaded by this run` },
      last,
    );
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
    return { doc, last };
  };
  const { value, settled, polls } = await pollUntil(read, ({ doc }) => doc.status !== 'processing', { timeoutMs });
  return { ...value, settled, polls };
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
