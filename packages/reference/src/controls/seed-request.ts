import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { textFault } from '@docproc-kit/contract/storable-text.js';
import { type FieldError, invalidRequest } from '../http/problem.js';
import type { DocumentError, DocumentStatus } from '../model.js';
import { STATUSES } from '../validation.js';
import { errorFault, isObject } from './field-checks.js';

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
  /** How many processing runs it has had (1 unless the seed says). */
  attempts: number;
}

// The bounds of one seed request, so one request's work is bounded whatever its body (@docproc-kit/contract's openapi/mock-controls.yaml
// states them, under x-seed-limits, and seed-request.test.ts holds the two together).
/** The most documents (and so entries) one seed request may create. */
export const MAX_SEEDED_DOCUMENTS = 1000;
/** The most text one seed request may store: filenames, contents and error messages of every document, in UTF-8 bytes, `count` included. */
export const MAX_SEEDED_TEXT_BYTES = 8 * 1024 * 1024;
/** The most field errors a refused seed lists; the rest are counted. */
export const MAX_LISTED_ERRORS = 20;
const MAX_AGE_S = 10 * 365 * 24 * 3600;
const MAX_ATTEMPTS = 1_000_000;
const FIELDS = ['filename', 'status', 'content', 'error', 'age_s', 'attempts', 'count'];
const DEFAULT_FILENAME = 'seeded-{n}.pdf';
const defaultContent = (n: number) => `Seeded document ${n}.`;
const DEFAULT_ERROR: DocumentError = { code: 'unreadable_document', message: 'Seeded failure: the document could not be read.' };

// Counted, not encoded: a seed's texts are megabytes, and an encoding of each would only be measured.
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A pair of surrogates is 4 bytes, 2 per unit; others below 0x800 are 2 bytes, the rest 3.
    if (unit >= 0x80) bytes += unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

// Field errors, the first MAX_LISTED_ERRORS of them listed: a body of thousands of bad entries gets a short answer.
function createErrorList() {
  const listed: FieldError[] = [];
  let unlisted = 0;
  return {
    push(error: FieldError) {
      if (listed.length < MAX_LISTED_ERRORS) listed.push(error);
      else unlisted++;
    },
    get empty() {
      return listed.length === 0;
    },
    refusal() {
      const total = listed.length + unlisted;
      const errors: FieldError[] =
        unlisted === 0
          ? listed
          : [
              ...listed,
              { in: 'body', name: 'documents', message: `${unlisted} more errors not listed (at most ${MAX_LISTED_ERRORS} are)` },
            ];
      return invalidRequest(errors, `The seed has ${total} invalid field${total === 1 ? '' : 's'}.`);
    },
  };
}

// The longest name `{n}` numbering makes of `filename` (n = count), in characters.
const numberedLength = (filename: string, count: number) => [...filename.replaceAll('{n}', String(count))].length;

/**
 * Validates a seed request (`{"documents": [{status, filename?, content?, error?, age_s?, attempts?, count?}]}`),
 * strictly and within its bounds (documents, text bytes; see above), and expands `count` (`{n}` in the
 * filename becomes 1..count). Every seeded document holds to the contract's limits as an uploaded one
 * does (a filename of at most its maxLength once numbered; text every store can hold).
 * @example parseSeeds({ documents: [{ status: 'failed', count: 3 }] }); // three failed documents
 */
export function parseSeeds(body: unknown): Seed[] {
  if (!isObject(body) || !Array.isArray(body.documents))
    throw invalidRequest([{ in: 'body', name: 'documents', message: 'must be an array of documents to create' }]);
  const entries = body.documents as unknown[];
  // Before any entry is looked at: the work of a refusal is bounded too.
  if (entries.length > MAX_SEEDED_DOCUMENTS)
    throw invalidRequest([
      {
        in: 'body',
        name: 'documents',
        message: `at most ${MAX_SEEDED_DOCUMENTS} documents per request (this one has ${entries.length} entries)`,
      },
    ]);
  const errors = createErrorList();
  for (const key of Object.keys(body))
    if (key !== 'documents') errors.push({ in: 'body', name: key, message: 'unknown field; known: documents' });
  const valid: Array<{ entry: Record<string, unknown>; count: number }> = [];
  let documents = 0;
  let textBytes = 0;
  for (const [i, entry] of entries.entries()) {
    const at = (name: string) => `documents[${i}].${name}`;
    if (!isObject(entry)) {
      errors.push({ in: 'body', name: `documents[${i}]`, message: 'must be an object' });
      continue;
    }
    let ok = true;
    const refuse = (name: string, message: string) => {
      ok = false;
      errors.push({ in: 'body', name: at(name), message });
    };
    for (const key of Object.keys(entry)) if (!FIELDS.includes(key)) refuse(key, `unknown field; known: ${FIELDS.join(', ')}`);
    const { status, filename = DEFAULT_FILENAME, content, error, age_s: age = 0, attempts = 1, count = 1 } = entry;
    if (!STATUSES.includes(status as DocumentStatus)) refuse('status', `must be one of ${STATUSES.join(', ')}`);
    const countOk = Number.isInteger(count) && (count as number) >= 1 && (count as number) <= MAX_SEEDED_DOCUMENTS;
    if (!countOk) refuse('count', `must be an integer from 1 to ${MAX_SEEDED_DOCUMENTS}`);
    const max = BUNDLED.maxFilenameLength;
    if (typeof filename !== 'string' || filename.length === 0 || [...filename].length > max)
      refuse('filename', `must be a string of 1 to ${max} characters`);
    else if (countOk && numberedLength(filename, count as number) > max)
      refuse(
        'filename',
        `must be at most ${max} characters once {n} is numbered (with n = ${count} it has ${numberedLength(filename, count as number)})`,
      );
    else if (textFault(filename)) refuse('filename', textFault(filename)!);
    if (content !== undefined && (status !== 'completed' || typeof content !== 'string'))
      refuse('content', 'is a string, and only for a completed document');
    else if (typeof content === 'string' && textFault(content)) refuse('content', textFault(content)!);
    if (error !== undefined && status !== 'failed') refuse('error', 'is only for a failed document');
    else if (error !== undefined && errorFault(error)) refuse('error', errorFault(error)!);
    if (!Number.isInteger(age) || (age as number) < 0 || (age as number) > MAX_AGE_S)
      refuse('age_s', `must be an integer from 0 to ${MAX_AGE_S}`);
    if (!Number.isInteger(attempts) || (attempts as number) < 1 || (attempts as number) > MAX_ATTEMPTS)
      refuse('attempts', `must be an integer from 1 to ${MAX_ATTEMPTS}`);
    if (!ok) continue;
    const n = count as number;
    documents += n;
    const text = (content as string | undefined) ?? (status === 'completed' ? defaultContent(n) : '');
    const message = status === 'failed' ? ((error as DocumentError | undefined) ?? DEFAULT_ERROR).message : '';
    textBytes += n * (utf8Bytes(filename as string) + utf8Bytes(text) + utf8Bytes(message));
    valid.push({ entry, count: n });
  }
  if (!errors.empty) throw errors.refusal();
  if (documents === 0) throw invalidRequest([{ in: 'body', name: 'documents', message: 'at least one document' }]);
  if (documents > MAX_SEEDED_DOCUMENTS)
    throw invalidRequest([
      { in: 'body', name: 'documents', message: `at most ${MAX_SEEDED_DOCUMENTS} documents per request (counts add up to ${documents})` },
    ]);
  if (textBytes > MAX_SEEDED_TEXT_BYTES)
    throw invalidRequest([
      {
        in: 'body',
        name: 'documents',
        message: `at most ${MAX_SEEDED_TEXT_BYTES} bytes of text per request (filenames, contents and error messages in UTF-8, each counted count times); this one has ${textBytes}`,
      },
    ]);
  return valid.flatMap(({ entry, count }) => {
    const { status, filename = DEFAULT_FILENAME, content, error, age_s: age = 0, attempts = 1 } = entry;
    return Array.from(
      { length: count },
      (_, i): Seed => ({
        filename: (filename as string).replaceAll('{n}', String(i + 1)),
        status: status as DocumentStatus,
        ...(status === 'completed' ? { content: (content as string | undefined) ?? defaultContent(i + 1) } : {}),
        ...(status === 'failed' ? { error: (error as DocumentError | undefined) ?? DEFAULT_ERROR } : {}),
        ageSeconds: age as number,
        attempts: attempts as number,
      }),
    );
  });
}
