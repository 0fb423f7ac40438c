import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import type { DocumentRecord, ListQuery } from '@docproc-kit/reference/model.js';
import type { Queryable } from './database.js';

/** The columns a record is read from. */
export const RECORD_COLUMNS =
  'id, tenant, filename, content_type, size_bytes, status, attempts, error, created_at, updated_at, processed_at, next_outcome';

/** A row of docproc.documents as pg returns it (bigints as strings). */
export interface RecordRow {
  id: string;
  tenant: string;
  filename: string;
  content_type: DocumentRecord['content_type'];
  size_bytes: string;
  status: DocumentRecord['status'];
  attempts: number;
  error: DocumentRecord['error'];
  created_at: string;
  updated_at: string;
  processed_at: string | null;
  next_outcome: DocumentRecord['next_outcome'];
}

/** A row as a record, frozen: a change is a new record, so a record handed out never changes under its holder. */
export function recordOf(row: RecordRow): DocumentRecord {
  return Object.freeze({
    id: Number(row.id),
    tenant: row.tenant,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    status: row.status,
    attempts: row.attempts,
    error: row.error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    processed_at: row.processed_at,
    next_outcome: row.next_outcome,
  });
}

/**
 * A search term as a LIKE pattern matching it as a literal substring: `%`, `_` and `\` (LIKE's escape
 * character) are escaped, so `50%` finds "50%", not "50" followed by anything.
 * @example likePattern('50%_off') // '%50\\%\\_off%'
 */
export function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The query of the documents a search finds ($1 tenant, $2 the LIKE pattern, $3 the status when
 * `byStatus`): those whose folded name or text has the term, found through each column's trigram index
 * first (MATERIALIZED: otherwise the planner may walk the tenant's whole list and test every row), then
 * narrowed to the tenant, the status and the contract's rule (the text of completed documents only).
 */
export function matchingDocuments(byStatus: boolean): string {
  return `WITH hits AS MATERIALIZED (
      SELECT id FROM docproc.documents WHERE folded_name LIKE $2
      UNION
      SELECT id FROM docproc.documents WHERE folded_content LIKE $2)
    SELECT ${RECORD_COLUMNS.split(', ')
      .map((c) => `d.${c}`)
      .join(', ')} FROM docproc.documents d JOIN hits USING (id)
    WHERE d.tenant = $1 ${byStatus ? 'AND d.status = $3' : ''}
      AND (d.folded_name LIKE $2 OR (d.status = 'completed' AND d.folded_content LIKE $2))`;
}

/**
 * One page of a tenant's documents, newest first (`created_at`, then id), filtered as the contract says,
 * and the filtered total. Without a search, the total is the tenant's counts row (kept by triggers) and
 * the page one index range; a search is a literal substring of the folded filename, or of the folded text
 * of a completed document, found through the trigram indexes.
 */
export async function listPage(db: Queryable, tenant: string, query: ListQuery): Promise<{ documents: DocumentRecord[]; total: number }> {
  const skip = (query.page - 1) * query.limit;
  const { status } = query;
  if (query.search === undefined) {
    const counts = await db.query<{ n: string }>(
      `SELECT ${status ? status : 'processing + completed + failed'} AS n FROM docproc.tenant_counts WHERE tenant = $1`,
      [tenant],
    );
    const total = Number(counts.rows[0]?.n ?? 0);
    if (skip >= total) return { documents: [], total };
    const page = await db.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM docproc.documents WHERE tenant = $1 ${status ? 'AND status = $4' : ''}
       ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      status ? [tenant, query.limit, skip, status] : [tenant, query.limit, skip],
    );
    return { documents: page.rows.map(recordOf), total };
  }
  const pattern = likePattern(foldForSearch(query.search));
  const values = status ? [tenant, pattern, status] : [tenant, pattern];
  const matching = matchingDocuments(status !== undefined);
  const page = await db.query<RecordRow & { total: string }>(
    `SELECT *, count(*) OVER () AS total FROM (${matching}) m
     ORDER BY created_at DESC, id DESC LIMIT ${Math.trunc(query.limit)} OFFSET ${Math.trunc(skip)}`,
    values,
  );
  if (page.rows.length > 0) return { documents: page.rows.map(recordOf), total: Number(page.rows[0]!.total) };
  if (skip === 0) return { documents: [], total: 0 };
  const counted = await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${matching}) m`, values);
  return { documents: [], total: Number(counted.rows[0]!.n) };
}
