import type { Answer } from '../checks/differential.js';
import { type ListParameter, ordinaryValue, spelledId } from './inputs.js';
import { inTargetOrder } from './list-order.js';
import { spellCase } from './names.js';
import type { Op, ParamValue } from './ops.js';
import { type PairRequest, sendTwin } from './pair.js';
import type { OracleDoc, OracleSequence } from './sequence.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** A read compared while documents change is sent again this many times before the sequence waits for them. */
const READ_ATTEMPTS = 3;
const encode = encodeURIComponent;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parameter that takes any text (no enum): the one a term cut from a document goes to. */
const freeText = (p: ListParameter) => p.schema.type === 'string' && !p.schema.enum;

/** A search term cut from a document's name or text around the sequence token, within the contract's length. */
function cutTerm(seq: OracleSequence, cut: Extract<ParamValue, { cut: unknown }>['cut']): string {
  const doc = seq.docs.length ? seq.docs[cut.doc % seq.docs.length]! : undefined;
  const inText = cut.from === 'content' && doc?.file.text;
  const source = !doc ? seq.token : inText ? doc.file.text! : doc.filename;
  const token = inText ? seq.textToken : seq.token;
  const points = [...source];
  const tokenAt = [...source.slice(0, Math.max(0, source.indexOf(token)))].length;
  const tokenLength = [...token].length;
  const max = seq.inputs.searchMax ?? Number.POSITIVE_INFINITY;
  let before = Math.min(cut.before, tokenAt);
  let after = Math.min(cut.after, points.length - tokenAt - tokenLength);
  while (before + tokenLength + after > max && after > 0) after--;
  while (before + tokenLength + after > max && before > 0) before--;
  return spellCase(points.slice(tokenAt - before, tokenAt + tokenLength + after).join(''), cut.spelling);
}

/** Sends a read, bracketed: compared once no document it could see changed during it (else sent again, then after waiting). */
async function read(
  seq: OracleSequence,
  title: string,
  area: 'list' | 'read',
  tenant: number,
  request: PairRequest,
  watch: OracleDoc[],
  project?: (a: Answer) => Answer,
  reorder?: (twin: Answer) => Promise<Answer>,
) {
  const step = seq.step(title);
  for (let attempt = 1; ; attempt++) {
    for (const doc of watch) await seq.sync(step, doc);
    if (attempt > READ_ATTEMPTS) await seq.settle(step, watch);
    const answers = await seq.exchange(step, area, tenant, request, watch, project, reorder);
    if (answers) return answers;
  }
}

/** A list: each drawn parameter an ordinary value, a boundary case, or a term cut from a document; maybe repeated, maybe one unknown. */
export async function listStep(seq: OracleSequence, op: Extract<Op, { kind: 'list' }>): Promise<void> {
  const { inputs, token } = seq;
  const target: Array<[string, string]> = [];
  const twin: Array<[string, string]> = [];
  const either: string[] = [];
  for (const { param, value } of op.params) {
    if (!inputs.list.length) break;
    // A term cut from a document is for the free-text parameter (`search`), whichever one was drawn.
    const p = ('cut' in value ? inputs.list.find(freeText) : undefined) ?? inputs.list[param % inputs.list.length]!;
    if (target.some(([name]) => name === p.name)) continue;
    let sent = ordinaryValue(p, 'normal' in value ? value.normal : 0, token);
    let plain = sent;
    const drawn =
      'edge' in value
        ? p.edges[value.edge % Math.max(1, p.edges.length)]
        : 'partition' in value
          ? p.partitions[value.partition % Math.max(1, p.partitions.length)]
          : undefined;
    if (drawn) {
      sent = drawn.value;
      plain = drawn.sameAs ?? drawn.value;
      if (drawn.sameAs !== undefined) either.push(`query ${p.name}`);
    } else if ('cut' in value && freeText(p)) sent = plain = cutTerm(seq, value.cut);
    target.push([p.name, sent]);
    twin.push([p.name, plain]);
  }
  if (op.extra === 'repeated' && target.length) {
    target.push(target[0]!);
    twin.push(twin[0]!);
  } else if (op.extra === 'unknown') {
    const buster: [string, string] = ['cache_buster', String(seq.next())];
    target.push(buster);
    twin.push(buster);
  }
  const query = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  const path = seq.env.operations.listDocuments!.path;
  const request: PairRequest = {
    method: 'GET',
    target: { path, query: query(target) },
    twin: { path, query: query(twin) },
    key: seq.keyOf(op.tenant, op.auth),
    headers: {},
    requestId: seq.requestId(op.requestId),
    either,
  };
  // Only a search holding the sequence's token keeps other runs' documents out: any other list is compared on its page and size alone.
  const searches = target.filter(([k]) => k === 'search');
  const scoped = searches.length === 1 && [token, seq.textToken].some((t) => searches[0]![1].toLowerCase().includes(t));
  const project = scoped
    ? undefined
    : (a: Answer): Answer =>
        a.status === 200 && isObject(a.body) && isObject(a.body.pagination)
          ? { ...a, body: { pagination: { page: a.body.pagination.page, limit: a.body.pagination.limit } } }
          : a;
  await read(
    seq,
    `list ${decodeURIComponent(query(target)).slice(0, 200) || '(no parameters)'}`,
    'list',
    op.tenant,
    request,
    seq.docs,
    project,
    scoped ? (twin) => inTargetOrder(seq, request, twin, limitMax(seq)) : undefined,
  );
}

/** A page size that reads the twin's whole list in few pages: the contract's largest. */
const limitMax = (seq: OracleSequence) => {
  const max = seq.inputs.list.find((p) => p.name === 'limit')?.schema.maximum;
  return typeof max === 'number' ? max : 50;
};

/** The path of a `{document_id}` operation with `id` in it. */
const pathWith = (template: string, id: string) => template.replace(/\{[^}]+\}/, encode(id));

/** A read or a retry of one of the sequence's documents (its id spelled some way), or of a far or invalid id. */
export async function documentStep(seq: OracleSequence, op: Extract<Op, { kind: 'get' | 'retry' }>): Promise<void> {
  const template = seq.env.operations[op.kind === 'get' ? 'getDocument' : 'retryDocument']!.path;
  const doc = 'doc' in op.doc && seq.docs.length ? seq.docs[op.doc.doc % seq.docs.length]! : undefined;
  let request: PairRequest;
  const base = {
    method: seq.env.operations[op.kind === 'get' ? 'getDocument' : 'retryDocument']!.method.toUpperCase(),
    key: seq.keyOf(op.tenant, op.auth),
    headers: {},
    requestId: seq.requestId(op.requestId),
  };
  if (doc && 'doc' in op.doc) {
    const t = spelledId(doc.targetId, op.doc.spelling);
    const r = spelledId(doc.twinId, op.doc.spelling);
    request = {
      ...base,
      target: { path: pathWith(template, t.value) },
      twin: { path: pathWith(template, r.sameAs ?? r.value) },
      ...(op.kind === 'retry' && r.sameAs !== undefined ? { twinAsSpelled: { path: pathWith(template, r.value) } } : {}),
      either: t.sameAs !== undefined ? ['path document_id'] : [],
      ...(t.value === String(doc.targetId) ? { names: { id: doc.targetId, alias: doc.alias } } : {}),
    };
  } else {
    if (!seq.inputs.ids.length) return;
    const edge = seq.inputs.ids[('edge' in op.doc ? op.doc.edge : op.doc.doc) % seq.inputs.ids.length]!;
    request = {
      ...base,
      target: { path: pathWith(template, edge.value) },
      twin: { path: pathWith(template, edge.sameAs ?? edge.value) },
      either: edge.sameAs !== undefined ? ['path document_id'] : [],
    };
  }
  const title = `${op.kind} ${doc?.alias ?? 'a document no one has'} as ${op.auth === 'own' ? `tenant ${op.tenant + 1}` : `${op.auth} key`}: ${request.target.path}`;
  if (op.kind === 'get') {
    await read(seq, title, 'read', op.tenant, request, doc ? [doc] : []);
    return;
  }
  const step = seq.step(title);
  if (doc) await seq.sync(step, doc);
  const answers = await seq.send(step, op.tenant, request);
  // The target's run ended between the read and the retry, which the twin could not know: end the twin's, send it again.
  if (doc && answers.target.status === 202 && answers.twin.status === 409 && !doc.settled) {
    await seq.endTwinRun(doc, { ok: false, error: { code: 'processing_error', message: 'ended unseen' } });
    doc.settled = true;
    answers.twin = await sendTwin(request, seq.twin, seq.env.keys);
  }
  seq.judge(step, 'retry', request, answers);
  if (doc && answers.twin.status === 202) doc.settled = false;
}

/** A request on no operation: a method a path does not take, or a path the API does not have. */
export async function strayStep(seq: OracleSequence, op: Extract<Op, { kind: 'stray' }>): Promise<void> {
  const operations = Object.entries(seq.env.operations);
  const [operationId, { method, path: template }] = operations[op.path % operations.length]!;
  const far = seq.inputs.ids.find((c) => c.expect === 'accept')?.value ?? '1';
  const path = op.unknownPath
    ? `${template.replace(/\{[^}]+\}/, far).replace(/\/[^/]*$/, '')}/oracle_unknown_path`
    : template.replace(/\{[^}]+\}/, far);
  const others = METHODS.filter((m) => m !== method.toUpperCase());
  const request: PairRequest = {
    method: op.unknownPath ? 'GET' : others[op.method % others.length]!,
    target: { path },
    twin: { path },
    key: seq.keyOf(0, op.auth),
    headers: {},
    requestId: seq.requestId(null),
    either: [],
  };
  const area =
    operationId === 'uploadDocuments'
      ? 'upload'
      : operationId === 'listDocuments'
        ? 'list'
        : operationId === 'retryDocument'
          ? 'retry'
          : 'read';
  const step = seq.step(`${request.method} ${path}`);
  await seq.exchange(step, area, 0, request);
}
