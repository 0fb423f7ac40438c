import { MAX_SEEDED_DOCUMENTS, MAX_SEEDED_TEXT_BYTES } from '@docproc-kit/reference/controls/seed-request.js';
import type { DocumentView } from './document-views.js';
import { createRedactor } from './text-anonymiser.js';

/** One document of a seed body (`POST /_mock/seed`'s `documents`), as a recording writes it. */
export interface RecordedSeed {
  filename: string;
  status: DocumentView['status'];
  content?: string;
  error?: NonNullable<DocumentView['error']>;
  age_s: number;
  attempts: number;
}

/** A seed file's contents: one seed body, or several when the documents exceed one seed request's bounds. */
export type SeedFileContents = { documents: RecordedSeed[] } | Array<{ documents: RecordedSeed[] }>;

/** What a recording holds so far, and what it left out. */
export interface RecordingSummary {
  /** Documents recorded (distinct ids of distinct keys). */
  documents: number;
  /** Answers that showed documents and were recorded. */
  answers: number;
  /** Answers that showed documents but were not recorded, and how many for each reason: a check that failed on them, or why they were not judged. */
  notRecorded: { total: number; byReason: Record<string, number> };
  /** Completed documents whose text no recorded answer showed (a read of each would have): seeded with the default text. */
  completedWithoutText: number;
}

/** How a recording is written. */
export interface WriteOptions {
  /** The moment ages are counted from (default: now). */
  now?: Date;
  /** Replace every document's text by generated words of the same lengths and scripts. */
  redactContent?: boolean;
  /** The same for filenames, their extensions kept. */
  redactFilenames?: boolean;
  /** The redaction's key: the same key gives the same words (default: a random one per write). */
  redactSeed?: string;
}

/** The documents seen in valid answers, the latest view of each winning. */
export interface SeedRecording {
  /** Records the documents one valid answer showed; `tenant` tells keys apart (never the key itself). */
  observe(views: DocumentView[], tenant: string): void;
  /** Counts an answer that showed documents but was not recorded, under each reason (a failed check's id). */
  refuse(reasons: string[]): void;
  summary(): RecordingSummary;
  /** The seed file's contents: one entry per tenant (several when one is over a seed request's bounds). */
  contents(options?: WriteOptions): SeedFileContents;
}

interface Known {
  view: DocumentView;
  /** The text a read showed, and of which attempt. */
  text?: { content: string; attempts: number };
}

const MAX_AGE_S = 315_360_000;
const encoder = new TextEncoder();
const bytes = (text: string | undefined) => (text === undefined ? 0 : encoder.encode(text).length);

// A later view is one whose document changed later; of two of the same moment, the one of more runs, then the one seen last.
function isNewer(view: DocumentView, than: DocumentView): boolean {
  const [at, before] = [Date.parse(view.updated_at), Date.parse(than.updated_at)];
  return at === before || Number.isNaN(at) || Number.isNaN(before) ? view.attempts >= than.attempts : at > before;
}

/** Splits one tenant's documents into seed bodies that each hold to a seed request's bounds. */
function bodies(seeds: RecordedSeed[]): Array<{ documents: RecordedSeed[] }> {
  const out: Array<{ documents: RecordedSeed[] }> = [];
  let current: RecordedSeed[] = [];
  let text = 0;
  for (const seed of seeds) {
    const size = bytes(seed.filename) + bytes(seed.content) + bytes(seed.error?.message);
    if (current.length > 0 && (current.length >= MAX_SEEDED_DOCUMENTS || text + size > MAX_SEEDED_TEXT_BYTES)) {
      out.push({ documents: current });
      current = [];
      text = 0;
    }
    current.push(seed);
    text += size;
  }
  if (current.length > 0) out.push({ documents: current });
  return out;
}

/**
 * A recording of documents into the seed format of `POST /_mock/seed` and `docproc serve --seed-file`:
 * filename, status, text, error, attempts and age of each, the latest view of each id winning, in the
 * order of their ids. Holds no key, no header, no query: only what the answers showed of documents.
 * @example const recording = createSeedRecording(); recording.observe(documentViews(op, 200, json)!, tenant); recording.contents();
 */
export function createSeedRecording(): SeedRecording {
  const tenants = new Map<string, Map<number, Known>>();
  const byReason: Record<string, number> = {};
  let answers = 0;
  let refused = 0;

  const seedsOf = (documents: Map<number, Known>, now: Date): RecordedSeed[] =>
    [...documents.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, { view, text }]) => {
        const age = Math.round((now.getTime() - Date.parse(view.created_at)) / 1000);
        const content = view.status === 'completed' && text?.attempts === view.attempts ? text.content : undefined;
        return {
          filename: view.filename,
          status: view.status,
          ...(content !== undefined ? { content } : {}),
          ...(view.status === 'failed' && view.error ? { error: { code: view.error.code, message: view.error.message } } : {}),
          age_s: Number.isFinite(age) ? Math.min(Math.max(age, 0), MAX_AGE_S) : 0,
          attempts: Math.max(1, Math.trunc(view.attempts)),
        };
      });

  return {
    observe(views, tenant) {
      answers += 1;
      const documents = tenants.get(tenant) ?? new Map<number, Known>();
      tenants.set(tenant, documents);
      for (const view of views) {
        const known = documents.get(view.document_id);
        const text =
          typeof view.content === 'string' && view.status === 'completed'
            ? { content: view.content, attempts: view.attempts }
            : known?.text;
        const latest = !known || isNewer(view, known.view) ? view : known.view;
        documents.set(view.document_id, { view: latest, ...(text ? { text } : {}) });
      }
    },
    refuse(reasons) {
      refused += 1;
      for (const reason of reasons) byReason[reason] = (byReason[reason] ?? 0) + 1;
    },
    summary() {
      let documents = 0;
      let completedWithoutText = 0;
      for (const known of tenants.values())
        for (const { view, text } of known.values()) {
          documents += 1;
          if (view.status === 'completed' && text?.attempts !== view.attempts) completedWithoutText += 1;
        }
      return { documents, answers, notRecorded: { total: refused, byReason: { ...byReason } }, completedWithoutText };
    },
    contents({ now = new Date(), redactContent = false, redactFilenames = false, redactSeed } = {}) {
      let perTenant = [...tenants.values()].map((documents) => seedsOf(documents, now)).filter((seeds) => seeds.length > 0);
      if (redactContent || redactFilenames) {
        const redactor = createRedactor(redactSeed ?? crypto.randomUUID());
        for (const seeds of perTenant)
          for (const seed of seeds) {
            if (redactFilenames) redactor.avoid(seed.filename);
            if (redactContent && seed.content !== undefined) redactor.avoid(seed.content);
          }
        perTenant = perTenant.map((seeds) =>
          seeds.map((seed) => ({
            ...seed,
            ...(redactFilenames ? { filename: redactor.filename(seed.filename) } : {}),
            ...(redactContent && seed.content !== undefined ? { content: redactor.text(seed.content) } : {}),
          })),
        );
      }
      const all = perTenant.flatMap(bodies);
      return all.length === 1 ? all[0]! : all;
    },
  };
}

/**
 * A recording's summary as one sentence: what it holds, what it left out and why.
 * @example describeRecording(recording.summary()); // '12 documents from 30 answers; 2 answers not recorded (response.body-matches-schema 2)'
 */
export function describeRecording(summary: RecordingSummary): string {
  const reasons = Object.entries(summary.notRecorded.byReason).map(([reason, count]) => `${reason} ${count}`);
  const { documents, answers, notRecorded, completedWithoutText: unread } = summary;
  return [
    `${documents} document${documents === 1 ? '' : 's'} from ${answers} answer${answers === 1 ? '' : 's'}`,
    ...(notRecorded.total > 0
      ? [`${notRecorded.total} answer${notRecorded.total === 1 ? '' : 's'} not recorded (${reasons.join(', ')})`]
      : []),
    ...(unread > 0
      ? [
          `${unread} completed document${unread === 1 ? ' was' : 's were'} never read, so the text is not in it (seeded with the default text)`,
        ]
      : []),
  ].join('; ');
}
