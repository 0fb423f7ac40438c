import type { components } from '../../src/generated/openapi.d.js';
import { checks } from '../checks/index.js';
import type { Exchange } from './exchange.js';
import { show } from './failure.js';
import type { Judge } from './judge.js';

/** A document as read from the wire: a list summary, or a full document with `content`. */
export type WireDocument = components['schemas']['DocumentSummary'] & { content?: string | null };

/** The documents a 2xx body carries: the `documents` of a list or upload, or the body itself. */
export function documentsIn(body: unknown): WireDocument[] {
  if (typeof body !== 'object' || body === null) return [];
  const docs = (body as { documents?: unknown }).documents;
  if (Array.isArray(docs)) return docs as WireDocument[];
  return 'document_id' in body && 'status' in body ? [body as WireDocument] : [];
}

/** Every way one document's fields contradict its status (empty when consistent). */
export function stateProblems(doc: WireDocument): string[] {
  const problems: string[] = [];
  const hasContent = 'content' in doc;
  const created = Date.parse(doc.created_at);
  if (doc.status === 'processing') {
    if (doc.error !== null) problems.push('processing but error is set');
    if (doc.processed_at !== null) problems.push('processing but processed_at is set');
    if (hasContent && doc.content !== null) problems.push('processing but content is set');
  } else {
    if (doc.processed_at === null) problems.push(`${doc.status} but processed_at is null`);
    if (doc.status === 'completed' && doc.error !== null) problems.push('completed but error is set');
    if (doc.status === 'completed' && hasContent && typeof doc.content !== 'string') problems.push('completed but content is not a string');
    if (doc.status === 'failed' && doc.error === null) problems.push('failed but error is null');
    if (doc.status === 'failed' && hasContent && doc.content !== null) problems.push('failed but content is set');
  }
  if (Date.parse(doc.updated_at) < created) problems.push('updated_at is before created_at');
  if (doc.processed_at !== null && Date.parse(doc.processed_at) < created) problems.push('processed_at is before created_at');
  return problems;
}

/** Every document in a successful body must agree with its own status. */
export function documentStateIsConsistent(exchange: Exchange, judge: Judge): void {
  if (exchange.status >= 300) return;
  for (const doc of documentsIn(exchange.json)) {
    const problems = stateProblems(doc);
    judge.verify(checks.response.documentStateConsistent, problems.length === 0, () => ({
      received: `document ${doc.document_id}: ${problems.join('; ')}`,
      documented: 'error only when failed, content only when completed, processed_at null exactly while processing',
      note: show(doc, 600),
      exchange,
    }));
  }
}
