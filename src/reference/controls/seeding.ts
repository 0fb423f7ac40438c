import { stagedBytes } from '../../http/upload/staged-file.js';
import type { DocumentRecord } from '../model.js';
import type { Processor } from '../processing/processor.js';
import type { DocumentStore, NewDocument } from '../store/document-store.js';
import type { Seed } from './seed-request.js';

// The stored file behind a seeded document: a one-page PDF whose text layer is its content, so a
// retry extracts (about) the same text. The standard font only covers Latin-1.
// pdf-lib is loaded on the first seed: the mock in a browser bundle pays for it only when it seeds.
async function seedPdf(text: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  // What fits on the page, cut before replacing: a seeded text may be megabytes.
  const lines = text.split('\n', 50).map((line) => line.slice(0, 90).replace(/[^\x20-\x7E\xA0-\xFF]/g, '?'));
  for (const [i, line] of lines.entries()) page.drawText(line, { x: 50, y: 790 - i * 15, size: 11, font });
  return pdf.save();
}

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

// Lets other requests in between two PDFs: a seed of a thousand makes a thousand.
const turnOver = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

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
  for (const seed of seeds) {
    const bytes = await seedPdf(seed.content ?? seed.filename);
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
        ...(seed.content === undefined ? {} : { text: seed.content }),
      },
    });
    await turnOver();
  }
  const records = await store.insert(documents, now.toISOString());
  processor.submit(records.filter((r) => r.status === 'processing'));
  return records.map((record, i) => ({ record, content: record.status === 'completed' ? (seeds[i]!.content ?? '') : null }));
}
