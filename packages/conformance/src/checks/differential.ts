import { type Finding, fail } from '../definitions/check.js';

// What the oracle compares, and what it lets differ. The contract lets a deployment differ from the
// reference core in these, and only these (ALLOWED, shown in CHECKS.md and every failure):
export const ALLOWED_DIFFERENCES = [
  'document ids: each side numbers its own documents; they are compared as the documents they name',
  'times: the values of `created_at`, `updated_at` and `processed_at` (whether each is null is compared)',
  'the order of documents in a list among themselves: each side puts newest first by its own `created_at`, then its own id (which documents, on which page, is compared)',
  'the key order of every object, and properties the reference does not send (documented ones are judged by the schema checks)',
  'wording: `title`, `detail`, `instance` and `request_id` of a problem, `message` of a field error and of a document error',
  'a made-up `X-Request-Id` (one that echoes the request is compared), and `Allow` listing more methods than the reference, or not HEAD (the contract names only each operation’s method, and stacks answer HEAD on a GET route whether or not their `Allow` lists it)',
  'the extracted text as whitespace: `content` is compared word by word, as extractors lay words out their own way',
  'how processing ends where the deployment decides it: a failure of any run (a transient fault or a processing limit), and the text of an image (its OCR)',
  'an integer written with a leading zero or `+`: a `400` naming it, or the answer to the plain number',
  'an upload with several faults (a name too long, a file too large, too many files, a type not accepted, a field misnamed): which one it is refused for',
  'a replayed upload: its documents as they were first answered or as they are now (which documents, in which order, their names, types and sizes are compared)',
] as const;

/** What of a replayed upload's documents is compared: what the first answer and the present agree on. */
const REPLAYED_FIELDS = ['document_id', 'filename', 'content_type', 'size_bytes'];

/** One answer as the oracle compares it. */
export interface Answer {
  status: number;
  /** The media type without parameters. */
  mediaType: string;
  body: unknown;
  header(name: string): string | null;
}

/** Names the documents of one side: an id of this side to the sequence's alias (`D3`), if it has one. */
export type AliasOf = (id: number) => string | undefined;

/** One difference: where, and what each side said. */
export interface Difference {
  at: string;
  target: string;
  reference: string;
}

const TIMES = new Set(['created_at', 'updated_at', 'processed_at']);
const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value));
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function document(doc: Record<string, unknown>, aliasOf: AliasOf): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(doc)) {
    if (name === 'document_id')
      out[name] = typeof value === 'number' ? (aliasOf(value) ?? `a document the sequence never made (id ${value})`) : value;
    else if (TIMES.has(name)) out[name] = value === null ? null : typeof value === 'string' ? '(a time)' : value;
    else if (name === 'error') out[name] = isObject(value) ? { code: value.code } : value;
    else if (name === 'content') out[name] = typeof value === 'string' ? value.split(/\s+/u).filter(Boolean).join(' ') : value;
    else out[name] = value;
  }
  return out;
}

function fieldErrors(errors: unknown): unknown {
  if (!Array.isArray(errors)) return errors;
  return errors
    .map((e) => (isObject(e) ? `${String(e.in)} ${e.in === 'header' ? String(e.name).toLowerCase() : String(e.name)}` : show(e)))
    .filter((e, i, all) => all.indexOf(e) === i)
    .sort();
}

/** A body as compared: documents by alias with times, wording and whitespace taken out; problems without wording. */
export function comparable(answer: Answer, aliasOf: AliasOf): unknown {
  const { body } = answer;
  if (!isObject(body)) return body;
  if (answer.mediaType === 'application/problem+json' || (answer.status >= 400 && 'code' in body)) {
    const { title: _t, detail: _d, instance: _i, request_id: _r, errors, ...rest } = body;
    return errors === undefined ? rest : { ...rest, errors: fieldErrors(errors) };
  }
  if (Array.isArray(body.documents)) return { ...body, documents: body.documents.map((d) => (isObject(d) ? document(d, aliasOf) : d)) };
  return 'document_id' in body ? document(body, aliasOf) : body;
}

/** A replayed upload's body as compared ({@link REPLAYED_FIELDS}); any other body as it is. */
function replayedPart(body: unknown, replay: boolean): unknown {
  if (!replay || !isObject(body) || !Array.isArray(body.documents)) return body;
  return { ...body, documents: body.documents.map((d) => (isObject(d) ? Object.fromEntries(REPLAYED_FIELDS.map((f) => [f, d[f]])) : d)) };
}

/** The differences of `target` from `reference`, walking the reference's shape (what the target adds is not compared, but `content` where the reference has none is). */
export function differences(target: unknown, reference: unknown, at = ''): Difference[] {
  if (Array.isArray(reference)) {
    if (!Array.isArray(target)) return [{ at, target: show(target), reference: show(reference) }];
    const out: Difference[] = [];
    if (target.length !== reference.length)
      out.push({ at: `${at}.length`, target: String(target.length), reference: String(reference.length) });
    for (let i = 0; i < Math.min(target.length, reference.length); i++) out.push(...differences(target[i], reference[i], `${at}[${i}]`));
    return out;
  }
  if (isObject(reference)) {
    if (!isObject(target)) return [{ at, target: show(target), reference: show(reference) }];
    const out: Difference[] = [];
    for (const [name, value] of Object.entries(reference)) out.push(...differences(target[name], value, `${at}.${name}`));
    // A list's documents never carry their text: one the target adds is a difference, not an extra.
    if ('document_id' in reference && !('content' in reference) && 'content' in target)
      out.push({ at: `${at}.content`, target: show(target.content), reference: '(absent)' });
    return out;
  }
  return Object.is(target, reference) ? [] : [{ at, target: show(target), reference: show(reference) }];
}

const methods = (allow: string | null) =>
  new Set(
    (allow ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean),
  );

/** What the sending side knows of a request that the answers are compared on. */
export interface Sent {
  /** The X-Request-Id sent, if any. */
  requestId: string | null;
  /** Names of parameters sent in a spelling the contract lets a deployment refuse or read (`in name`). */
  either: string[];
  /** An upload's faults, each as the refusal it causes: with several, any one of them may be the answer (the contract orders none). */
  faults?: Array<{ status: number; code: string }>;
}

/** Whether `answer` is a 400 that names one of the parameters sent in a spelling the contract lets a deployment refuse. */
export function refusesSpelling(answer: Answer, either: string[]): boolean {
  if (!either.length || answer.status !== 400) return false;
  const named = fieldErrors((answer.body as { errors?: unknown } | undefined)?.errors);
  return Array.isArray(named) && either.some((e) => named.includes(e));
}

/** Every difference between the target's answer and the reference's to the same request. */
export function compareAnswers(
  target: Answer,
  reference: Answer,
  sent: Sent,
  aliases: { target: AliasOf; reference: AliasOf },
): Difference[] {
  // A spelling the contract leaves open: a 400 naming it is one reading, the plain number's answer the other.
  if (reference.status !== 400 && refusesSpelling(target, sent.either)) return [];
  if (sent.faults && sent.faults.length > 1) {
    const code = (target.body as { code?: unknown } | undefined)?.code;
    if (sent.faults.some((f) => f.status === target.status && f.code === code)) return [];
  }
  const out: Difference[] = [];
  if (target.status !== reference.status) out.push({ at: 'status', target: String(target.status), reference: String(reference.status) });
  if (target.mediaType !== reference.mediaType)
    out.push({ at: 'Content-Type', target: target.mediaType || '(none)', reference: reference.mediaType || '(none)' });
  if (sent.requestId !== null) {
    const echoed = (a: Answer) => a.header('x-request-id') === sent.requestId;
    if (echoed(target) !== echoed(reference))
      out.push({
        at: 'X-Request-Id',
        target: show(target.header('x-request-id')),
        reference: echoed(reference) ? 'the request’s own, echoed' : 'one of its own, not the request’s',
      });
  }
  const replayed = (a: Answer) => a.header('idempotent-replayed');
  if (replayed(target) !== replayed(reference))
    out.push({ at: 'Idempotent-Replayed', target: show(replayed(target) ?? undefined), reference: show(replayed(reference) ?? undefined) });
  if (reference.status === 405) {
    // HEAD goes with GET in the reference's Allow; the contract names only the operation's own method, and
    // stacks that answer HEAD on a GET route (Express, Starlette, Spring) list it or not as they please.
    const missing = [...methods(reference.header('allow'))].filter((m) => m !== 'HEAD' && !methods(target.header('allow')).has(m));
    if (missing.length)
      out.push({ at: 'Allow', target: show(target.header('allow') ?? undefined), reference: show(reference.header('allow')) });
  }
  if (target.status === reference.status) {
    const replay = replayed(reference) === 'true';
    const theirs = replayedPart(comparable(target, aliases.target), replay);
    const ours = replayedPart(comparable(reference, aliases.reference), replay);
    // Both refused: a parameter spelled either way may be named besides what the reference named.
    if (sent.either.length && isObject(theirs) && isObject(ours) && Array.isArray(theirs.errors) && Array.isArray(ours.errors)) {
      const named = ours.errors;
      theirs.errors = theirs.errors.filter((e) => !sent.either.includes(e as string) || named.includes(e));
    }
    out.push(...differences(theirs, ours, 'body'));
  }
  return out;
}

/** What an oracle check is shown: the target's and the reference core's answers to one request, and what was sent. */
export interface PairObservation {
  kind: 'pair';
  target: Answer;
  reference: Answer;
  sent: Sent;
  aliases: { target: AliasOf; reference: AliasOf };
}

/** A sequence's documents that never ended on the target within the run's time. */
export interface StillProcessing {
  kind: 'still-processing';
  pending: number;
  timeoutMs: number;
}

export type OracleObservation = PairObservation | StillProcessing;

const sideOf = (found: Difference[], side: 'target' | 'reference') =>
  found.map((d) => `${d.at || 'body'}: ${side === 'target' ? d.target : d.reference}`).join('\n');

/**
 * The oracle checks' judge: every difference between the two answers but those the contract allows.
 * @example judgeOracle({ kind: 'pair', target, reference, sent: { requestId: null, either: [] }, aliases })
 */
export function judgeOracle(observation: OracleObservation): Finding | undefined {
  if (observation.kind === 'still-processing')
    return fail(
      `${observation.pending} of the sequence's document(s) still processing after ${observation.timeoutMs} ms`,
      'every processing run ends, completed or failed, within --timeout-ms',
    );
  const found = compareAnswers(observation.target, observation.reference, observation.sent, observation.aliases);
  return found.length === 0
    ? undefined
    : fail(
        sideOf(found, 'target'),
        `what the reference core answered:\n${sideOf(found, 'reference')}`,
        `Differences the contract allows were not counted: ${ALLOWED_DIFFERENCES.join('; ')}.`,
      );
}
