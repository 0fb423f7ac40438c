import { FIXED_FIELDS } from '../checks/document.js';
import { checks } from '../checks/index.js';
import type { Check } from '../definitions/check.js';
import type { Exchange } from '../definitions/exchange.js';
import { documentsIn, uploaded, type WireDocument, type WireFullDocument } from '../transport/api.js';
import type { ObservedMultipart } from './observed-exchange.js';
import type { Verdict } from './verdicts.js';

// What a read must still show of its upload. Not `attempts`: retries the proxy did not see (another client's,
// or its own before this run) raise it, and a document read after a retry is no violation.
const UNCHANGING = FIXED_FIELDS.filter((field) => field !== 'attempts');

/** The most recent `max` entries by use: a read or a write makes one the newest, the oldest goes first. */
function recentlyUsed<V>(max: number) {
  const entries = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key: string, value: V): void {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}

/** What the proxy remembers of one document: as its upload returned it, and as it was last seen. */
interface Remembered {
  uploaded?: WireDocument;
  last: WireFullDocument;
}

/** Stateful facts across exchanges: what earlier answers said, judged against later ones. */
export interface SessionFacts {
  /** Judges `exchange` against what earlier exchanges showed, then remembers what it shows. */
  observe(exchange: Exchange, upload: ObservedMultipart | undefined, tenant: string): Verdict[];
}

// A document remembered without its text: no check here reads it, and texts can be large.
const withoutText = (doc: WireDocument): WireFullDocument => ({ ...(doc as WireFullDocument), content: null });

/**
 * The stateful checks of the suite one exchange can show once the proxy saw an earlier one: an upload's
 * documents one per file part in order, a read of an uploaded id against its upload, a retry's 202 against
 * the document as last seen (attempts + 1). Documents are remembered per tenant (a digest of its key, in
 * memory only) and id, the most recent `capacity`.
 * @example const facts = createSessionFacts(10_000); facts.observe(exchange, tappedUpload)
 */
export function createSessionFacts(capacity: number): SessionFacts {
  const known = recentlyUsed<Remembered>(capacity);
  const remember = (tenant: string, doc: WireDocument, asUploaded: boolean) => {
    if (typeof doc.document_id !== 'number') return;
    const key = `${tenant}:${doc.document_id}`;
    const found = known.get(key);
    known.set(key, { ...(asUploaded ? { uploaded: doc } : found?.uploaded ? { uploaded: found.uploaded } : {}), last: withoutText(doc) });
  };
  return {
    observe(exchange, upload, tenant) {
      const verdicts: Verdict[] = [];
      const keyOf = (id: number) => `${tenant}:${id}`;
      const judge = <I>(check: Check<I>, observation: I) => {
        const finding = check.judge!(observation);
        verdicts.push(finding ? { kind: 'violation', check, finding, side: 'service' } : { kind: 'pass', check });
      };
      const op = exchange.target.kind === 'operation' ? exchange.target.operationId : undefined;
      if (op === 'uploadDocuments' && exchange.status === 202) {
        const documents = uploaded(exchange);
        const files = upload?.parts.filter((p) => p.name === 'files[]');
        if (files && !upload?.malformed && files.every((p) => p.filename !== undefined))
          judge(checks.upload.onePerPart, { status: exchange.status, sent: files.map((p) => p.filename!), documents });
        for (const doc of documents) remember(tenant, doc, true);
        return verdicts;
      }
      // The document asked for is the one in the path: an answer about another one is judged against it.
      const asked = Number(/\/(\d{1,16})(?:\?.*)?$/.exec(exchange.request.url)?.[1]);
      if (op === 'getDocument' && exchange.status === 200 && Number.isSafeInteger(asked)) {
        const read = exchange.json as WireFullDocument;
        const sent = known.get(keyOf(asked))?.uploaded;
        if (sent) judge(checks.get.matchesUpload, { when: `a read of document ${asked} after its upload`, read, sent, fields: UNCHANGING });
      }
      if (op === 'retryDocument' && exchange.status === 202 && Number.isSafeInteger(asked)) {
        const after = exchange.json as WireFullDocument;
        const before = known.get(keyOf(asked))?.last;
        // Only a document last seen finished can be judged: one last seen processing may have ended unseen since.
        if (before && before.status !== 'processing') judge(checks.retry.restartsProcessing, { before, after });
      }
      if (exchange.status < 300) for (const doc of documentsIn(exchange.json)) remember(tenant, doc, false);
      return verdicts;
    },
  };
}
