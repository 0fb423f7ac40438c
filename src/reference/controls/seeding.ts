import { BUNDLED } from '../../contract/bundled.js';
import { type FieldError, invalidRequest } from '../../http/problem.js';
import { stagedBytes } from '../../http/upload/staged-file.js';
import type { DocumentError, DocumentRecord, DocumentStatus } from '../model.js';
import type { Processor } from '../processing/processor.js';
import type { DocumentStore } from '../store/document-store.js';
import { STATUSES } from '../validation.js';

/** One document to create directly in a state (after expansion of `count`). */
export interface Seed {
  filename: string;
  status: DocumentStatus;
  /** The extracted text of a completed document. */
  content?: string;
  /** Why a failed document failed. */
  error?: DocumentError;
  /** How long ago it was uploaded, in seconds. */
  ageSeconds: number;
}

/** The most documents one seed request may create. */
export const MAX_SEEDED_DOCUMENTS = 1000;
const MAX_AGE_S = 10 * 365 * 24 * 3600;
const FIELDS = ['filename', 'status', 'content', 'error', 'age_s', 'count'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates a seed request (`{"documents": [{status, filename?, content?, error?, age_s?, count?}]}`),
 * strictly, and expands `count` (`{n}` in the filename becomes 1..count).
 * @example parseSeeds({ documents: [{ status: 'failed', count: 3 }] }); // three failed documents
 */
export function parseSeeds(body: unknown): Seed[] {
  if (!isObject(body) || !Array.isArray(body.documents))
    throw invalidRequest([{ in: 'body', name: 'documents', message: 'must be an array of documents to create' }]);
  const errors: FieldError[] = [];
  const seeds: Seed[] = [];
  for (const key of Object.keys(body))
    if (key !== 'documents') errors.push({ in: 'body', name: key, message: 'unknown field; known: documents' });
  for (const [i, entry] of (body.documents as unknown[]).entries()) {
    const at = (name: string) => `documents[${i}].${name}`;
    if (!isObject(entry)) {
      errors.push({ in: 'body', name: `documents[${i}]`, message: 'must be an object' });
      continue;
    }
    for (const key of Object.keys(entry))
      if (!FIELDS.includes(key)) errors.push({ in: 'body', name: at(key), message: `unknown field; known: ${FIELDS.join(', ')}` });
    const { status, filename = 'seeded-{n}.pdf', content, error, age_s: age = 0, count = 1 } = entry;
    if (!STATUSES.includes(status as DocumentStatus))
      errors.push({ in: 'body', name: at('status'), message: `must be one of ${STATUSES.join(', ')}` });
    if (typeof filename !== 'string' || filename.length === 0 || [...filename].length > BUNDLED.maxFilenameLength)
      errors.push({ in: 'body', name: at('filename'), message: `must be a string of 1 to ${BUNDLED.maxFilenameLength} characters` });
    if (content !== undefined && (status !== 'completed' || typeof content !== 'string'))
      errors.push({ in: 'body', name: at('content'), message: 'is a string, and only for a completed document' });
    const validError =
      isObject(error) &&
      (error.code === 'unreadable_document' || error.code === 'processing_error') &&
      typeof error.message === 'string' &&
      error.message.length > 0 &&
      Object.keys(error).length === 2;
    if (error !== undefined && (status !== 'failed' || !validError))
      errors.push({
        in: 'body',
        name: at('error'),
        message: 'is {"code": "unreadable_document" | "processing_error", "message": "..."}, and only for a failed document',
      });
    if (!Number.isInteger(age) || (age as number) < 0 || (age as number) > MAX_AGE_S)
      errors.push({ in: 'body', name: at('age_s'), message: `must be an integer from 0 to ${MAX_AGE_S}` });
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_SEEDED_DOCUMENTS)
      errors.push({ in: 'body', name: at('count'), message: `must be an integer from 1 to ${MAX_SEEDED_DOCUMENTS}` });
    if (errors.length > 0) continue;
    for (let n = 1; n <= (count as number); n++) {
      seeds.push({
        filename: (filename as string).replaceAll('{n}', String(n)),
        status: status as DocumentStatus,
        ...(status === 'completed' ? { content: (content as string | undefined) ?? `Seeded document ${n}.` } : {}),
        ...(status === 'failed'
          ? {
              error: (error as DocumentError | undefined) ?? {
                code: 'unreadable_document',
                message: 'Seeded failure: the document could not be read.',
              },
            }
          : {}),
        ageSeconds: age as number,
      });
    }
  }
  if (errors.length === 0 && seeds.length > MAX_SEEDED_DOCUMENTS)
    errors.push({ in: 'body', name: 'documents', message: `at most ${MAX_SEEDED_DOCUMENTS} documents per request` });
  if (errors.length === 0 && seeds.length === 0) errors.push({ in: 'body', name: 'documents', message: 'at least one document' });
  if (errors.length > 0) throw invalidRequest(errors);
  return seeds;
}

// The stored file behind a seeded document: a one-page PDF whose text layer is its content, so a
// retry extracts (about) the same text. The standard font only covers Latin-1.
// pdf-lib is loaded on the first seed: the mock in a browser bundle pays for it only when it seeds.
async function seedPdf(text: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const lines = text
    .replace(/[^\n\x20-\x7E\xA0-\xFF]/g, '?')
    .split('\n')
    .slice(0, 50);
  for (const [i, line] of lines.entries()) page.drawText(line.slice(0, 90), { x: 50, y: 790 - i * 15, size: 11, font });
  return pdf.save();
}

/** What {@link seedDocuments} needs. */
export interface SeedDeps {
  store: DocumentStore;
  processor: Processor;
  clock: () => Date;
}

/**
 * Creates the documents directly in their states for one tenant, ids in the given order: each with
 * a stored PDF (so it can be retried), `created_at` its age ago, completed ones with their text,
 * failed ones with their error. Processing ones are handed to the processor like an upload, so they
 * finish after the tenant's processing delay.
 * @example await seedDocuments({ store, processor, clock }, tenant, parseSeeds(req.body));
 */
export async function seedDocuments({ store, processor, clock }: SeedDeps, tenant: string, seeds: Seed[]): Promise<DocumentRecord[]> {
  const now = clock();
  const files = await Promise.all(
    seeds.map(async (seed) => {
      const bytes = await seedPdf(seed.content ?? seed.filename);
      return {
        tenant,
        filename: seed.filename,
        content_type: 'application/pdf' as const,
        size_bytes: bytes.length,
        file: stagedBytes(bytes),
      };
    }),
  );
  const inserted = await store.insert(files, now.toISOString());
  const records = await Promise.all(
    inserted.map(async (record, i) => {
      const seed = seeds[i]!;
      const created = new Date(now.getTime() - seed.ageSeconds * 1000);
      // A finished run ended a second after the upload (or now, for a document uploaded just now).
      const finished = new Date(Math.min(now.getTime(), created.getTime() + 1000)).toISOString();
      const done = seed.status !== 'processing';
      const state: DocumentRecord = {
        ...record,
        status: seed.status,
        error: seed.error ?? null,
        created_at: created.toISOString(),
        updated_at: done ? finished : created.toISOString(),
        processed_at: done ? finished : null,
      };
      return (await store.update(record.id, () => ({ record: state, text: seed.content })))?.record ?? state;
    }),
  );
  processor.submit(records.filter((r) => r.status === 'processing'));
  return records;
}
