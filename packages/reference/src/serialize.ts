import { type DocumentRecord, toSummary } from './model.js';

// A record's wire form (DocumentSummary) as JSON, made once per record state: records are never changed
// in place (a change is a new record), so the record object itself is the key, and a list of twenty
// documents is twenty lookups and one join instead of twenty JSON.stringify calls.
const summaries = new WeakMap<DocumentRecord, string>();

/** A record as `DocumentSummary` JSON (the list's items). */
export function summaryJson(record: DocumentRecord): string {
  let json = summaries.get(record);
  if (json === undefined) {
    json = JSON.stringify(toSummary(record));
    if (Object.isFrozen(record)) summaries.set(record, json);
  }
  return json;
}

/** A record as `Document` JSON: its summary and its text (null unless completed). */
export function documentJson(record: DocumentRecord, content: string | null): string {
  const summary = summaryJson(record);
  return `${summary.slice(0, -1)},"content":${JSON.stringify(content)}}`;
}

/** The `UploadResult` of an upload: its documents, each with `content` null. */
export function uploadResultJson(records: DocumentRecord[]): string {
  return `{"documents":[${records.map((r) => documentJson(r, null)).join(',')}]}`;
}

/** A `DocumentList` page. */
export function listJson(records: readonly DocumentRecord[], pagination: { page: number; limit: number; total: number }): string {
  const { page, limit, total } = pagination;
  const totalPages = Math.ceil(total / limit);
  return `{"documents":[${records.map(summaryJson).join(',')}],"pagination":{"page":${page},"limit":${limit},"total":${total},"total_pages":${totalPages}}}`;
}
