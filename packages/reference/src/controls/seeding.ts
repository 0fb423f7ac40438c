import { stagedBytes } from '../http/upload/staged-file.js';
import type { DocumentRecord } from '../model.js';
import type { Processor } from '../processing/processor.js';
import { documentJson } from '../serialize.js';
import type { DocumentStore, NewDocument } from '../store/document-store.js';
import { seedPdf } from './seed-pdf.js';
import type { Seed } from './seed-request.js';

/** What {@link seedDocuments} needs. */
export interface SeedDeps {
  store: DocumentStore;
  processor: Processor;
  clock: () => Date;
}

/** A seeded document as created, and its text (the store's `content` of it, known without asking the store). */
export interface Seeded {
  record: DocumentRecord;
  content: string | null;
}

// Lets other requests in between chunks of work: a seed of a thousand documents makes a thousand PDFs and
// answers with a thousand documents.
export const turnOver = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
// Turns are taken by the time worked, not by a count of PDFs: a timer's turn costs a millisecond or more,
// which a count small enough to keep other requests waiting little would pay thousands of times over.
const MS_PER_TURN = 5;

/**
 * Creates the documents directly in their states for one tenant, ids in the given order, all or nothing
 * (one insert of the store): each with a stored PDF (so it can be retried), `created_at` its age ago,
 * completed ones with their text, failed ones with their error. Only once they are stored are the
 * processing ones handed to the processor like an upload's (with a shared queue, a hand-over that fails
 * is made good by the replicas' sweep for documents with no run), so they finish after the tenant's
 * processing delay.
 * @example await seedDocuments({ store, processor, clock }, tenant, parseSeeds(req.body));
 */
export async function seedDocuments({ store, processor, clock }: SeedDeps, tenant: string, seeds: Seed[]): Promise<Seeded[]> {
  const now = clock();
  const documents: NewDocument[] = [];
  let turnStarted = performance.now();
  for (const seed of seeds) {
    // A one-page PDF whose text layer is its content, so a retry extracts (about) the same text.
    const bytes = seedPdf(seed.content ?? seed.filename);
    const created = new Date(now.getTime() - seed.ageSeconds * 1000);
    // A finished run ended a second after the upload (or now, for a document uploaded just now).
    const finished = new Date(Math.min(now.getTime(), created.getTime() + 1000)).toISOString();
    const done = seed.status !== 'processing';
    documents.push({
      tenant,
      filename: seed.filename,
      content_type: 'application/pdf',
      size_bytes: bytes.length,
      file: stagedBytes(bytes),
      state: {
        status: seed.status,
        error: seed.error ?? null,
        created_at: created.toISOString(),
        updated_at: done ? finished : created.toISOString(),
        processed_at: done ? finished : null,
        attempts: seed.attempts,
        ...(seed.content === undefined ? {} : { text: seed.content }),
      },
    });
    if (performance.now() - turnStarted > MS_PER_TURN) {
      await turnOver();
      turnStarted = performance.now();
    }
  }
  const records = await store.insert(documents, now.toISOString());
  processor.submit(records.filter((r) => r.status === 'processing'));
  return records.map((record, i) => ({ record, content: record.status === 'completed' ? (seeds[i]!.content ?? '') : null }));
}

// How much seeded text one turn of the event loop serialises.
const ANSWER_CHARS_PER_TURN = 64 * 1024;

/**
 * The body of a seed's `201`: the documents as getDocument shows them, serialised a part at a time (a seed's
 * answer may be megabytes of text).
 * @example jsonResponse(201, await seedAnswer(await seedDocuments(deps, tenant, seeds)));
 */
export async function seedAnswer(seeded: Seeded[]): Promise<string> {
  const parts: string[] = [];
  let chars = 0;
  for (const { record, content } of seeded) {
    parts.push(documentJson(record, content));
    chars += content?.length ?? 0;
    if (chars > ANSWER_CHARS_PER_TURN) {
      chars = 0;
      await turnOver();
    }
  }
  return `{"documents":[${parts.join(',')}]}`;
}
