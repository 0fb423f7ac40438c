import type { components } from '@docproc-kit/contract/generated/openapi.js';

/** A document's detected file type. */
export type ContentType = components['schemas']['DocumentContentType'];
/** processing | completed | failed. */
export type DocumentStatus = components['schemas']['DocumentStatus'];
/** Why a run failed. */
export type DocumentError = components['schemas']['DocumentError'];
/** A document on the wire, with its text. */
export type Document = components['schemas']['Document'];
/** A document on the wire, as lists carry it. */
export type DocumentSummary = components['schemas']['DocumentSummary'];

/** The validated query of `listDocuments`, defaults applied. */
export interface ListQuery {
  page: number;
  limit: number;
  status?: DocumentStatus;
  search?: string;
}

/** The outcome a mock control forced on a document's next finished run. */
export type ForcedOutcome = { outcome: 'completed'; content?: string } | { outcome: 'failed'; error?: DocumentError };

/**
 * A document as the store keeps it: the wire fields (text lives in a file beside the db), its
 * owner's tenant id, and any forced outcome.
 */
export interface DocumentRecord {
  id: number;
  tenant: string;
  filename: string;
  content_type: ContentType;
  size_bytes: number;
  status: DocumentStatus;
  attempts: number;
  error: DocumentError | null;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
  next_outcome: ForcedOutcome | null;
}

/** The wire form of a record in lists. */
export function toSummary(record: DocumentRecord): DocumentSummary {
  return {
    document_id: record.id,
    filename: record.filename,
    content_type: record.content_type,
    size_bytes: record.size_bytes,
    status: record.status,
    attempts: record.attempts,
    error: record.error,
    created_at: record.created_at,
    updated_at: record.updated_at,
    processed_at: record.processed_at,
  };
}
