import type { Answer } from '../checks/differential.js';
import { buildMultipart } from '../transport/multipart.js';
import type { FileSpec, Op } from './ops.js';
import { oracleFile } from './oracle-files.js';
import type { PairRequest } from './pair.js';
import type { OracleSequence, PartPlan, UploadPlan } from './sequence.js';

const EXTENSIONS = {
  text: 'pdf',
  blank: 'pdf',
  damaged: 'pdf',
  image: 'png',
  photo: 'jpg',
  pages: 'pdf',
  refused: 'txt',
  'over-size': 'pdf',
  empty: 'pdf',
  'over-half-size': 'pdf',
  'later-page': 'pdf',
} as const;
/** The files that fill an upload up to the deployment's file limit. */
const FILLER: FileSpec = {
  content: 'text',
  before: '',
  after: '',
  length: 'drawn',
  extension: 0,
  word: 'n',
  declared: 0,
  star: false,
  misnamed: false,
};
/** Extensions a part may carry besides its own: its type comes from its bytes, never its name. */
const OTHER_EXTENSIONS = ['pdf', 'png', 'jpeg', 'txt', ''];
/** A file over the deployment's size limit is sent only where that limit is small: beyond it, the boundary checks send one. */
const OVER_SIZE_UP_TO_BYTES = 1024 * 1024;
/** Two files of over half the size limit are sent where the limit is at most this (the contract's default is 25 MiB). */
const HALF_SIZE_UP_TO_BYTES = 64 * 1024 * 1024;
// What a quoted `filename="..."` cannot carry unambiguously (stacks differ on escapes): such names go as `filename*`.
const UNQUOTABLE = /["\\\r\n\0]/;

const codePoints = (text: string) => [...text].length;

/** `text` cut or padded (with `x`) to exactly `length` code points, keeping its end (the extension). */
function ofLength(text: string, length: number, ext: string): string {
  const tail = ext ? `.${ext}` : '';
  const points = [...(tail ? text.slice(0, -tail.length) : text)];
  const body = points.slice(0, Math.max(0, length - tail.length));
  while (body.length < length - tail.length) body.push('x');
  return body.join('') + tail;
}

/** The part a file spec becomes in this sequence: its name's length and characters drawn or at the contract's limits. */
export function planPart(seq: OracleSequence, spec: FileSpec): PartPlan {
  const { inputs, env, token } = seq;
  const content =
    (spec.content === 'over-size' && env.limits.maxFileBytes > OVER_SIZE_UP_TO_BYTES) ||
    (spec.content === 'over-half-size' && env.limits.maxFileBytes > HALF_SIZE_UP_TO_BYTES)
      ? 'text'
      : spec.content;
  const ext = spec.extension === 0 ? EXTENSIONS[content] : OTHER_EXTENSIONS[(spec.extension - 1) % OTHER_EXTENSIONS.length]!;
  let filename = `${spec.before}${token}${spec.after}${ext ? `.${ext}` : ''}`;
  let star = spec.star;
  if (spec.length === 'at-limit' || spec.length === 'over-limit')
    filename = ofLength(filename, inputs.maxFilename + (spec.length === 'over-limit' ? 1 : 0), ext);
  else if (spec.length !== 'drawn' && inputs.filenames.length) {
    const edge = inputs.filenames[spec.length.edge % inputs.filenames.length]!;
    filename = edge.value;
    star ||= edge.via === 'filename*';
  }
  return {
    file: oracleFile(content, [`${spec.lead ?? ''}${seq.textToken}${spec.word}`], env.limits.maxFileBytes),
    filename,
    field: spec.misnamed ? 'file' : env.fileField,
    contentType: inputs.declared[spec.declared % inputs.declared.length]!,
    star: star || UNQUOTABLE.test(filename),
  };
}

/** Each fault of `plan` by the contract's limits, as the refusal it causes. */
function faultsOf(seq: OracleSequence, plan: UploadPlan): Array<{ status: number; code: string }> {
  const { inputs, env } = seq;
  const faults: Array<{ status: number; code: string }> = [];
  const add = (status: number, code: string) => faults.push({ status, code });
  if (plan.parts.length > env.limits.maxFiles) add(413, 'too_many_files');
  for (const part of plan.parts) {
    if (codePoints(part.filename) > inputs.maxFilename || part.filename.includes('\0')) add(400, 'invalid_request');
    if (part.field !== env.fileField) add(400, 'invalid_request');
    if (part.file.content === 'refused' || part.file.content === 'empty') add(415, 'unsupported_media_type');
    if (part.file.bytes.length > env.limits.maxFileBytes) add(413, 'file_too_large');
  }
  if (plan.key !== null && inputs.idempotencyKeys.some((c) => c.value === plan.key && c.expect === 'refuse')) add(400, 'invalid_request');
  const earlier = seq.uploads.some((u) => u !== plan && u.key === plan.key && u.tenant === plan.tenant);
  if (plan.key !== null && earlier) add(409, 'idempotency_key_reused');
  return faults;
}

/** Sends `plan` to both sides; an accepted upload's documents join the sequence under new aliases. */
export async function sendUpload(seq: OracleSequence, plan: UploadPlan, title: string, requestId: string | null): Promise<void> {
  const { body, contentType } = buildMultipart(
    plan.parts.map((p) => ({
      field: p.field,
      ...(p.star ? { filenameStar: p.filename } : { filename: p.filename }),
      contentType: p.contentType,
      data: p.file.bytes,
    })),
    `docproc-oracle-${seq.next()}-boundary`,
  );
  const path = seq.env.operations.uploadDocuments!.path;
  const creates = plan.parts.map((_, i) => `D${seq.docs.length + i + 1}`);
  const request: PairRequest = {
    method: 'POST',
    target: { path },
    twin: { path },
    key: seq.keyOf(plan.tenant, plan.auth),
    headers: plan.key !== null ? { [seq.env.idempotencyHeader]: plan.key } : {},
    requestId,
    body: { contentType, data: body },
    either: [],
    faults: faultsOf(seq, plan),
    creates,
  };
  const described = plan.parts.map(
    (p) => `${p.file.content} ${JSON.stringify(codePoints(p.filename) > 60 ? `${[...p.filename].slice(0, 60).join('')}…` : p.filename)}`,
  );
  const step = seq.step(`${title}: ${described.join(', ')}${plan.key !== null ? ` (key ${JSON.stringify(plan.key.slice(0, 40))})` : ''}`);
  seq.uploads.push(plan);
  const answers = await seq.send(step, plan.tenant, request);
  // The documents an accepted upload made are named before its answers are compared: by part, on each side.
  const made = (a: Answer) =>
    a.status === 202 ? ((a.body as { documents?: Array<{ document_id?: unknown; created_at?: unknown }> }).documents ?? []) : [];
  const targetDocs = made(answers.target);
  const twinDocs = made(answers.twin);
  if (answers.twin.header('idempotent-replayed') !== 'true')
    plan.parts.forEach((part, i) => {
      const targetId = targetDocs[i]?.document_id;
      const twinId = twinDocs[i]?.document_id;
      if (typeof targetId !== 'number' || typeof twinId !== 'number') return;
      seq.docs.push({
        alias: `D${seq.docs.length + 1}`,
        tenant: plan.tenant,
        targetId,
        twinId,
        file: part.file,
        filename: part.filename,
        ...(typeof targetDocs[i]?.created_at === 'string' ? { targetCreated: targetDocs[i]!.created_at as string } : {}),
        settled: false,
      });
    });
  seq.judge(step, 'upload', request, answers);
}

/** An upload step: its files, how many (drawn, or at the deployment's file limit or one past it), its key and request id. */
export async function uploadStep(seq: OracleSequence, op: Extract<Op, { kind: 'upload' }>): Promise<void> {
  const { inputs, env, token } = seq;
  let specs = op.files;
  // The count boundary is sent where the deployment has a file limit, and a small one (the contract's default is 20).
  if (op.count !== 'drawn' && env.limits.maxFiles <= 100) {
    const n = env.limits.maxFiles + (op.count === 'over-limit' ? 1 : 0);
    specs = Array.from({ length: n }, (_, i) => specs[i] ?? { ...FILLER, word: `n${i}` });
  }
  let key: string | null = null;
  if (op.idempotency !== null)
    key =
      'key' in op.idempotency
        ? `${token}-key${op.idempotency.key}`
        : (inputs.idempotencyKeys[op.idempotency.edge % Math.max(1, inputs.idempotencyKeys.length)]?.value ?? null);
  const plan: UploadPlan = { tenant: op.tenant, auth: op.auth, parts: specs.map((s) => planPart(seq, s)), key };
  await sendUpload(seq, plan, 'upload', seq.requestId(op.requestId));
}

/**
 * Sends an earlier upload again: as it was (a replay under its key), renamed, its first file with other bytes
 * under the same name (one more byte at its end, which no reader of the type looks at), with a part fewer, or
 * as the other tenant.
 */
export async function repeatStep(seq: OracleSequence, op: Extract<Op, { kind: 'repeat' }>): Promise<void> {
  if (!seq.uploads.length) return;
  const earlier = seq.uploads[op.upload % seq.uploads.length]!;
  let plan: UploadPlan = { ...earlier };
  if (op.change === 'rename')
    plan = { ...earlier, parts: earlier.parts.map((p, i) => (i === 0 ? { ...p, filename: `r${p.filename}` } : p)) };
  else if (op.change === 'rebyte')
    plan = {
      ...earlier,
      parts: earlier.parts.map((p, i) => (i === 0 ? { ...p, file: { ...p.file, bytes: Uint8Array.of(...p.file.bytes, 0x0a) } } : p)),
    };
  else if (op.change === 'drop' && earlier.parts.length > 1) plan = { ...earlier, parts: earlier.parts.slice(0, -1) };
  else if (op.change === 'other-tenant' && seq.env.keys.secondary !== undefined) plan = { ...earlier, tenant: 1 - earlier.tenant };
  await sendUpload(seq, plan, `repeat upload ${seq.uploads.indexOf(earlier) + 1} (${op.change})`, seq.requestId(null));
}
