import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import type { DocumentRecord } from '@docproc-kit/reference/model.js';
import type { NewDocument } from '@docproc-kit/reference/store/document-store.js';
import type { Queryable } from './database.js';

const toBuffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

// How a seed of a thousand documents goes in: rows in chunks (one statement each, up to CHUNK_ROWS rows or
// CHUNK_TEXT_CHARS of text), and the event loop turns over between chunks, so folding and encoding a
// large seed never holds up other requests for long. A large file goes alone, as a binary parameter.
const CHUNK_ROWS = 100;
const CHUNK_TEXT_CHARS = 64 * 1024;
const SMALL_FILE_BYTES = 64 * 1024;
const turnOver = () => new Promise<void>((resolve) => setImmediate(resolve));

// Splits items into chunks of at most CHUNK_ROWS items and about `budget` of their `size`.
function chunked<T>(items: T[], size: (item: T) => number, budget: number): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let used = 0;
  for (const item of items) {
    if (chunk.length > 0 && (chunk.length >= CHUNK_ROWS || used + size(item) > budget)) {
      chunks.push(chunk);
      chunk = [];
      used = 0;
    }
    chunk.push(item);
    used += size(item);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

// One large file in memory at a time (an upload may hold 20 of 25 MiB); small ones a chunk at a time.
/** Stores the documents' bytes, ids in order, within the caller's transaction. */
export async function insertFiles(tx: Queryable, ids: number[], files: NewDocument[]): Promise<void> {
  const all = files.map((document, i) => ({ id: ids[i]!, document }));
  for (const { id, document } of all.filter((f) => f.document.size_bytes > SMALL_FILE_BYTES))
    await tx.query('INSERT INTO docproc.files (id, bytes) VALUES ($1, $2)', [id, toBuffer(await document.file.bytes())]);
  const small = all.filter((f) => f.document.size_bytes <= SMALL_FILE_BYTES);
  for (const chunk of chunked(small, (f) => f.document.size_bytes, CHUNK_TEXT_CHARS)) {
    const bytes = await Promise.all(chunk.map(async (f) => toBuffer(await f.document.file.bytes())));
    await tx.query('INSERT INTO docproc.files (id, bytes) SELECT * FROM unnest($1::bigint[], $2::bytea[])', [
      chunk.map((f) => f.id),
      bytes,
    ]);
    await turnOver();
  }
}

/** Inserts the records (with the texts of seeded ones), within the caller's transaction. */
export async function insertDocuments(tx: Queryable, records: DocumentRecord[], texts: Array<string | undefined>): Promise<void> {
  const rows = records.map((record, i) => ({ record, text: texts[i] }));
  for (const chunk of chunked(rows, (row) => row.text?.length ?? 0, CHUNK_TEXT_CHARS)) {
    const column = <T>(value: (row: (typeof rows)[number]) => T) => chunk.map(value);
    await tx.query(
      `INSERT INTO docproc.documents (id, tenant, filename, content_type, size_bytes, status, attempts, error, created_at, updated_at,
         processed_at, folded_name, content, folded_content)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::int[], $8::jsonb[],
         $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])`,
      [
        column((r) => r.record.id),
        column((r) => r.record.tenant),
        column((r) => r.record.filename),
        column((r) => r.record.content_type),
        column((r) => r.record.size_bytes),
        column((r) => r.record.status),
        column((r) => r.record.attempts),
        column((r) => (r.record.error === null ? null : JSON.stringify(r.record.error))),
        column((r) => r.record.created_at),
        column((r) => r.record.updated_at),
        column((r) => r.record.processed_at),
        column((r) => foldForSearch(r.record.filename)),
        column((r) => r.text ?? null),
        column((r) => (r.text === undefined ? null : foldForSearch(r.text))),
      ],
    );
    await turnOver();
  }
}
