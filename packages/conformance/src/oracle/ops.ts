import fc from 'fast-check';
import { type CaseSpelling, namePiece, wordPiece } from './names.js';
import type { FileContent } from './oracle-files.js';

// The steps of a random sequence, as fast-check draws and shrinks them. Documents, uploads and boundary
// cases are named by index (taken modulo what exists when the step runs), so any shortened sequence is
// still a sequence that runs. Which values reach which constraint is decided from the contract when the
// step runs (sequence.ts): nothing here restates a limit.

/**
 * Which key a step sends: its tenant's (0: the run's key, 1: the second one's when given), none, an unknown
 * one, a near miss of the run's key (its letters' case swapped), or the run's key in an undocumented place.
 */
export type Auth = 'own' | 'none' | 'unknown' | 'near-miss' | 'misplaced';

/** A file of an upload and how its part is written. */
export interface FileSpec {
  content: FileContent;
  /** Characters before and after the sequence token in its name. */
  before: string;
  after: string;
  /** Its name at the contract's filename limit, one past it, or as drawn; or a boundary case of the filename. */
  length: 'drawn' | 'at-limit' | 'over-limit' | { edge: number };
  /** Its extension: the one its content has (mostly), or another (types come from bytes, never names), or none. */
  extension: number;
  /** The word after the token in a `text` PDF. */
  word: string;
  /** Letters before the token in a `text` PDF's word (the token then sits inside the word, not at its start). */
  lead?: string;
  /** The part's Content-Type, an index into the contract's document types and two others. */
  declared: number;
  /** Written as `filename*` (RFC 5987) rather than `filename="..."`. */
  star: boolean;
  /** Sent under another field name than the contract's (a typo the upload must refuse). */
  misnamed: boolean;
}

/** A file of `content` as the fixed sequences send it: its own extension and type, a name as drawn, `word` in its text. */
export function plainFile(content: FileContent, word: string): FileSpec {
  return { content, before: '', after: '', length: 'drawn', extension: 0, word, declared: 0, star: false, misnamed: false };
}

/**
 * A list parameter's value: an ordinary one, a boundary case of the contract's, a value of one of its
 * partitions in the catalogue (inputs/partition-catalog.ts), or (search) a term cut from a document.
 */
export type ParamValue =
  | { normal: number }
  | { edge: number }
  | { partition: number }
  | { cut: { doc: number; from: 'filename' | 'content'; before: number; after: number; spelling: CaseSpelling } };

export type Op =
  | {
      kind: 'upload';
      tenant: number;
      auth: Auth;
      files: FileSpec[];
      /** All the deployment's limit of files, or one more: the count boundary. */
      count: 'drawn' | 'at-limit' | 'over-limit';
      idempotency: null | { key: number } | { edge: number };
      requestId: null | { edge: number };
    }
  | { kind: 'repeat'; upload: number; change: 'none' | 'rename' | 'rebyte' | 'drop' | 'other-tenant' }
  | {
      kind: 'list';
      tenant: number;
      auth: Auth;
      params: Array<{ param: number; value: ParamValue }>;
      /** A parameter sent twice, or one the contract does not know (ignored); a parameter drawn twice is sent once. */
      extra: 'none' | 'repeated' | 'unknown';
      requestId: null | { edge: number };
    }
  | {
      kind: 'get' | 'retry';
      tenant: number;
      auth: Auth;
      doc: { doc: number; spelling: number } | { edge: number };
      requestId: null | { edge: number };
    }
  | { kind: 'stray'; auth: Auth; path: number; method: number; unknownPath: boolean }
  /** Waits until every document of the sequence has ended on the target (so texts can be searched). */
  | { kind: 'wait' };

const index = fc.nat({ max: 1000 });
const tenant = fc.constantFrom(0, 0, 0, 1);
const auth = fc.oneof(
  { weight: 14, arbitrary: fc.constant<Auth>('own') },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'unknown') },
  { weight: 1, arbitrary: fc.constantFrom<Auth>('near-miss', 'misplaced') },
);
const requestId = fc.option(fc.record({ edge: index }), { freq: 3 });

const fileSpec: fc.Arbitrary<FileSpec> = fc.record({
  content: fc.oneof(
    { weight: 12, arbitrary: fc.constant<FileContent>('text') },
    { weight: 4, arbitrary: fc.constantFrom<FileContent>('blank', 'damaged', 'image', 'photo', 'pages') },
    { weight: 1, arbitrary: fc.constantFrom<FileContent>('refused', 'over-size') },
  ),
  before: namePiece(6),
  after: namePiece(8),
  length: fc.oneof(
    { weight: 8, arbitrary: fc.constant<'drawn'>('drawn') },
    { weight: 1, arbitrary: fc.constantFrom<'at-limit' | 'over-limit'>('at-limit', 'over-limit') },
    { weight: 1, arbitrary: fc.record({ edge: index }) },
  ),
  extension: fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: 5 }) }),
  word: wordPiece(8),
  declared: fc.nat({ max: 4 }),
  star: fc.boolean(),
  misnamed: fc.nat({ max: 15 }).map((n) => n === 0),
});

const paramValue: fc.Arbitrary<ParamValue> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ normal: index }) },
  { weight: 2, arbitrary: fc.record({ edge: index }) },
  { weight: 2, arbitrary: fc.record({ partition: index }) },
  {
    weight: 6,
    arbitrary: fc.record({
      cut: fc.record({
        doc: index,
        from: fc.constantFrom<'filename' | 'content'>('filename', 'content'),
        before: fc.nat({ max: 40 }),
        after: fc.nat({ max: 40 }),
        spelling: fc.constantFrom<CaseSpelling>('same', 'upper', 'lower', 'swapped'),
      }),
    }),
  },
);

/** One step of a sequence: mostly uploads and lists, then reads, retries, repeats, and requests on no operation. */
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant<'upload'>('upload'),
      tenant,
      auth,
      files: fc.oneof(
        { weight: 30, arbitrary: fc.array(fileSpec, { minLength: 1, maxLength: 3 }) },
        { weight: 1, arbitrary: fc.constant<FileSpec[]>([]) },
      ),
      count: fc.constantFrom<'drawn' | 'at-limit' | 'over-limit'>(
        'drawn',
        'drawn',
        'drawn',
        'drawn',
        'drawn',
        'drawn',
        'at-limit',
        'over-limit',
      ),
      idempotency: fc.oneof(
        { weight: 3, arbitrary: fc.constant(null) },
        { weight: 3, arbitrary: fc.record({ key: fc.nat({ max: 2 }) }) },
        { weight: 1, arbitrary: fc.record({ edge: index }) },
      ),
      requestId,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant<'repeat'>('repeat'),
      upload: index,
      change: fc.constantFrom<Extract<Op, { kind: 'repeat' }>['change']>('none', 'none', 'rename', 'rebyte', 'drop', 'other-tenant'),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant<'list'>('list'),
      tenant,
      auth,
      params: fc.array(fc.record({ param: index, value: paramValue }), { maxLength: 4 }),
      extra: fc.constantFrom<'none' | 'repeated' | 'unknown'>('none', 'none', 'none', 'none', 'repeated', 'unknown'),
      requestId,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom<'get' | 'retry'>('get', 'get', 'retry'),
      tenant,
      auth,
      doc: fc.oneof(
        { weight: 5, arbitrary: fc.record({ doc: index, spelling: fc.nat({ max: 8 }) }) },
        { weight: 1, arbitrary: fc.record({ edge: index }) },
      ),
      requestId,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant<'stray'>('stray'), auth, path: index, method: index, unknownPath: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant<Op>({ kind: 'wait' }) },
);
