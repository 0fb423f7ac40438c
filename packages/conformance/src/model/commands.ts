import fc from 'fast-check';
import { checks } from '../checks/index.js';
import { show } from '../definitions/describe.js';
import { part } from '../inputs/sample-files.js';
import { codeOf, type WireDocument } from '../transport/api.js';
import { swapCase } from '../transport/http.js';
import { pollUntil, sleep } from '../transport/polling.js';
import { type FileKind, KIND_FACTS } from './file-kinds.js';
import { judgeGet, judgeRetry } from './judge-document.js';
import { judgeList, listExpectation } from './judge-list.js';
import { judgeUpload } from './judge-upload.js';
import { answerOf, type SequenceContext, type Step } from './sequence-context.js';
import { describeQuery, type ListQuery, type ModelDoc, type PartSpec, type ServiceModel, type Status } from './state.js';

export type Cmd = fc.AsyncCommand<ServiceModel, SequenceContext>;

// Letters beyond ASCII for the names the model searches with their case swapped. ß is there because the
// contract's full case folding makes its upper case `SS` find it, where lowercasing alone does not. The
// dotted and dotless i are not: under that folding their swapped case does not find them.
const LETTERS = ['a', 'é', 'Ö', 'ж', 'Ω', 'ñ', 'Å', 'ß', 'b'];

const tenantName = (tenant: string) => (tenant === 'primary' ? 'the first key' : 'the second key');

/**
 * How an upload's parts name their type (upload.type-from-bytes: "never from its name or the part's
 * Content-Type"): truly, with another document type's extension, declaring another document type, or
 * declaring none a deployment accepts.
 */
export type Disguise = 'none' | 'extension' | 'declared' | 'unaccepted';

const OTHER_EXTENSION: Record<string, string> = { pdf: 'png', png: 'jpg', jpg: 'pdf' };
const OTHER_TYPE: Record<string, string> = { 'application/pdf': 'image/png', 'image/png': 'image/jpeg', 'image/jpeg': 'application/pdf' };

/** An upload: new files (some of them a kind no deployment accepts), or a repeat of an earlier upload. */
export class UploadCommand implements Cmd {
  constructor(
    readonly tenant: number,
    readonly kinds: FileKind[],
    readonly bad: boolean,
    readonly key: number | null,
    readonly repeat: number | null,
    readonly disguise: Disguise = 'none',
  ) {}

  check = () => true;

  async run(m: ServiceModel, r: SequenceContext): Promise<void> {
    const tenant = r.tenant(this.tenant);
    let parts: PartSpec[];
    let key: string | null;
    const earlier = this.repeat !== null && r.uploads.length > 0 ? r.uploads[this.repeat % r.uploads.length]! : undefined;
    if (earlier) ({ parts, key } = earlier);
    else {
      const n = r.uploads.length + 1;
      const good = this.kinds.filter((k) => r.env.kinds.includes(k)).slice(0, this.bad ? r.env.maxFiles - 1 : r.env.maxFiles);
      const kinds: FileKind[] = this.bad ? [...good, 'not-a-document'] : good.length ? good : [r.env.kinds[0]!];
      parts = kinds.map((kind, i) => {
        const { extension, partType } = KIND_FACTS[kind];
        const ext = this.disguise === 'extension' ? (OTHER_EXTENSION[extension] ?? extension) : extension;
        const declared =
          this.disguise === 'declared'
            ? (OTHER_TYPE[partType] ?? partType)
            : this.disguise === 'unaccepted'
              ? 'application/octet-stream'
              : partType;
        return {
          filename: `${r.token}-u${n}-${i + 1}-${LETTERS[(n + i) % LETTERS.length]}.${ext}`,
          kind,
          size: r.files.bytes[kind].length,
          ...(declared !== partType ? { declared } : {}),
        };
      });
      key = this.key === null ? null : `${r.token}-key${this.key}`;
    }
    r.uploads.push({ parts, key });
    const expected = m.expectUpload(tenant, parts, key);
    const model =
      expected.kind === 'created'
        ? `202 with ${parts.length} new processing document(s)`
        : expected.kind === 'replay'
          ? `202 replaying ${show(expected.ids.map((id) => m.docs.find((d) => d.id === id)?.alias ?? id))}`
          : `${expected.answers.map((a) => `${a.status} ${a.code}`).join(' or ')}, nothing created`;
    const step = r.step(
      `${earlier ? 'repeat an earlier upload' : 'upload'} as ${tenantName(tenant)}: ${show(parts.map((p) => p.kind))}${key ? `, ${r.env.idempotencyHeader} ${key.slice(r.token.length)}` : ''}`,
      model,
    );
    const aliases = parts.map((_, i) => `D${m.docs.length + i + 1}`);
    const exchange = await r.send(
      step,
      tenant,
      {
        operation: 'uploadDocuments',
        body: {
          kind: 'files',
          parts: parts.map((p) => part(p.filename, r.files.bytes[p.kind], p.declared ?? KIND_FACTS[p.kind].partType)),
        },
        ...(key !== null ? { headers: { [r.env.idempotencyHeader]: key } } : {}),
      },
      expected.kind === 'created' ? { creates: aliases } : {},
    );
    const ids = ((exchange.json as { documents?: WireDocument[] } | undefined)?.documents ?? []).map((d) => d.document_id);
    step.target = `${exchange.status}${codeOf(exchange.json) ? ` ${codeOf(exchange.json)}` : ''}${ids.length ? ` ids ${show(ids)}` : ''}`;
    judgeUpload(m, tenant, parts, key, expected, answerOf(exchange), Date.now(), r.judge(step, exchange));
  }

  toString(): string {
    return `upload(${this.tenant}, ${show(this.kinds)}, bad ${this.bad}, key ${this.key}, repeat ${this.repeat}, disguise ${this.disguise})`;
  }
}

/** One page of a list, always scoped by a term only this sequence's documents can match. */
export class ListCommand implements Cmd {
  constructor(
    readonly tenant: number,
    readonly page: number,
    readonly limit: 'default' | number,
    readonly filter: Status | null,
    readonly search: 'token' | 'token-upper' | 'name' | 'word',
    readonly pick: number,
  ) {}

  // A list before any document exists proves little; one after an upload proves what it stored.
  check = (m: Readonly<ServiceModel>) => m.docs.length > 0;

  async run(m: ServiceModel, r: SequenceContext): Promise<void> {
    const tenant = r.tenant(this.tenant);
    // A name of the tenant's own documents when it has some: a search that should find something.
    const own = m.listed(tenant).map((d) => d.filename);
    const names = own.length ? own : r.uploads.flatMap((u) => u.parts.map((p) => p.filename));
    let search: string;
    if (this.search === 'token-upper') search = r.token.toUpperCase();
    else if (this.search === 'word') search = swapCase(r.files.word.slice(0, 6)) + r.files.word.slice(6);
    else if (this.search === 'name' && names.length) {
      const name = names[this.pick % names.length]!;
      search = swapCase(name.slice(0, name.lastIndexOf('.')));
    } else search = r.token;
    const limit = this.limit === 'default' ? r.env.defaultLimit : this.limit;
    const query: ListQuery = { page: Math.max(1, this.page), limit, search, ...(this.filter ? { statusFilter: this.filter } : {}) };
    const step = r.step(
      `list as ${tenantName(tenant)}: ${describeQuery(query)}, page ${query.page}, limit ${limit}`,
      listExpectation(m, m.listed(tenant), query),
    );
    const exchange = await r.send(step, tenant, {
      operation: 'listDocuments',
      query: {
        search,
        ...(this.page > 0 ? { page: this.page } : {}),
        ...(this.limit !== 'default' ? { limit } : {}),
        ...(this.filter ? { status_filter: this.filter } : {}),
      },
    });
    const body = exchange.json as { documents?: WireDocument[]; pagination?: { total?: number } } | undefined;
    step.target = `${exchange.status} ${show((body?.documents ?? []).map((d) => m.docs.find((x) => x.id === d.document_id)?.alias ?? d.document_id))}, total ${body?.pagination?.total}`;
    judgeList(m, tenant, query, answerOf(exchange), Date.now(), r.judge(step, exchange));
  }

  toString(): string {
    return `list(${this.tenant}, page ${this.page}, limit ${this.limit}, ${this.filter}, ${this.search} ${this.pick})`;
  }
}

/** A read or a retry of one of the sequence's documents, by its owner or by the other tenant. */
export class DocumentCommand implements Cmd {
  constructor(
    readonly action: 'get' | 'retry',
    readonly tenant: number,
    readonly pick: number,
  ) {}

  check = (m: Readonly<ServiceModel>) => m.docs.length > 0;

  async run(m: ServiceModel, r: SequenceContext): Promise<void> {
    const tenant = r.tenant(this.tenant);
    const doc = m.docs[this.pick % m.docs.length]!;
    const own = doc.tenant === tenant;
    const model = !own
      ? "404 not_found (the other key's document)"
      : this.action === 'get'
        ? `200, ${stateText(m, doc)}`
        : doc.mayProcess
          ? `409 document_busy while its run goes on, or 202 if it has just ended`
          : `202, processing again with attempts ${doc.attempts + 1}`;
    const step = r.step(`${this.action === 'get' ? 'read' : 'retry'} ${doc.alias} as ${tenantName(tenant)}`, model);
    // A retry changes the document: it must come a clock tick (as the target's timestamps show it) after the last change seen.
    if (this.action === 'retry' && own) await sleep(doc.seen.since + r.env.changeGapMs + m.grain.ms - Date.now());
    const exchange = await r.send(
      step,
      tenant,
      { operation: this.action === 'get' ? 'getDocument' : 'retryDocument', params: { document_id: doc.id } },
      { names: { id: doc.id, alias: doc.alias } },
    );
    step.target = summary(exchange.status, exchange.json);
    const judge = r.judge(step, exchange);
    if (this.action === 'get') judgeGet(m, tenant, doc, answerOf(exchange), Date.now(), judge);
    else judgeRetry(m, tenant, doc, answerOf(exchange), Date.now(), judge);
  }

  toString(): string {
    return `${this.action}(${this.tenant}, ${this.pick})`;
  }
}

/** Reads documents whose run may still be going until it has ended (every read judged): one, or all of them. */
export class SettleCommand implements Cmd {
  constructor(readonly pick: number | 'all') {}

  check = (m: Readonly<ServiceModel>) => m.docs.some((d) => d.mayProcess);

  async run(m: ServiceModel, r: SequenceContext): Promise<void> {
    const waiting = m.docs.filter((d) => d.mayProcess);
    const docs = this.pick === 'all' ? waiting : [waiting[this.pick % waiting.length]!];
    const step = r.step(
      `read ${docs.map((d) => d.alias).join(', ')} until ${docs.length > 1 ? 'their runs have' : 'its run has'} ended`,
      `${docs.map((d) => `${d.alias} ${[...d.outcomes].join(' or ')}`).join(', ')} within --timeout-ms ${r.env.timeoutMs}`,
    );
    for (const doc of docs) await settle(m, r, step, doc);
  }

  toString(): string {
    return `settle(${this.pick})`;
  }
}

async function settle(m: ServiceModel, r: SequenceContext, step: Step, doc: ModelDoc): Promise<void> {
  const first = step.calls.length;
  const read = async (polls: number) => {
    const exchange = await r.send(
      step,
      doc.tenant,
      { operation: 'getDocument', params: { document_id: doc.id } },
      {
        names: { id: doc.id, alias: doc.alias },
        poll: true,
      },
    );
    // The script waits in a loop: one call per document is enough.
    step.calls.splice(first, step.calls.length - first - 1);
    step.target = `${doc.alias} ${summary(exchange.status, exchange.json)} after ${polls} read(s)`;
    const judge = r.judge(step, exchange);
    judgeGet(m, doc.tenant, doc, answerOf(exchange), Date.now(), judge);
    return judge;
  };
  const {
    value: judge,
    settled,
    polls,
  } = await pollUntil(read, () => !doc.mayProcess, {
    timeoutMs: r.env.timeoutMs,
    firstDelayMs: r.env.firstPollMs,
  });
  // Judged once per document: when it settled (a pass), or when the time ran out (a failure).
  judge.verify(checks.lifecycle.reachesTerminal, settled, () => ({
    received: `${doc.alias} still processing after ${r.env.timeoutMs} ms (${polls} reads)`,
    expected: `completed or failed within --timeout-ms ${r.env.timeoutMs}`,
  }));
}

function stateText(m: ServiceModel, doc: ModelDoc): string {
  return `${m.possible(doc).join(' or ')}, attempts ${doc.attempts}`;
}

function summary(status: number, body: unknown): string {
  const d = body as Partial<WireDocument> | undefined;
  if (status >= 300) return `${status} ${show(codeOf(body) ?? '')}`;
  return `${status} ${d?.status}, attempts ${d?.attempts}, updated_at ${d?.updated_at}, processed_at ${d?.processed_at}`;
}

/** The accepted values of `page` and `limit` the model's lists draw, from the partition catalogue (a bound the contract does not state is left out). */
export interface ListRanges {
  page: { min?: number; max?: number };
  limit: { min?: number; max?: number };
}

/**
 * The commands of a model run, weighted toward what finds defects: uploads and lists most, then reads,
 * retries and waits for a run to end. Lists page from the first page to a few past it, and now and then
 * to the largest page the contract allows; their limit is the default, the least, a few, or the largest.
 */
export function modelCommands(statuses: readonly string[], ranges: ListRanges): Array<fc.Arbitrary<Cmd>> {
  const first = ranges.page.min ?? 1;
  const least = ranges.limit.min ?? 1;
  const pages = [0, first, first, first + 1, first + 2, ...(ranges.page.max !== undefined ? [ranges.page.max] : [])];
  const limits: Array<'default' | number> = [
    'default',
    least,
    ...[least + 1, least + 2].filter((n) => ranges.limit.max === undefined || n <= ranges.limit.max),
    ...(ranges.limit.max !== undefined ? [ranges.limit.max] : []),
  ];
  const tenant = fc.constantFrom(0, 1);
  const kind = fc.constantFrom<FileKind>('word', 'word', 'plain', 'damaged', 'truncated-png');
  const upload = fc
    .record({
      tenant,
      kinds: fc.array(kind, { minLength: 1, maxLength: 3 }),
      bad: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      key: fc.constantFrom(null, 0, 0, 1),
      repeat: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat(20) }),
      disguise: fc.constantFrom<Disguise>('none', 'none', 'none', 'extension', 'declared', 'unaccepted'),
    })
    .map((a) => new UploadCommand(a.tenant, a.kinds, a.bad, a.key, a.repeat, a.disguise));
  const list = fc
    .record({
      tenant,
      page: fc.constantFrom(...pages),
      limit: fc.constantFrom(...limits),
      filter: fc.constantFrom<Status | null>(null, null, ...(statuses as Status[])),
      search: fc.constantFrom<ListCommand['search']>('token', 'token-upper', 'name', 'word'),
      pick: fc.nat(20),
    })
    .map((a) => new ListCommand(a.tenant, a.page, a.limit, a.filter, a.search, a.pick));
  const get = fc.record({ tenant, pick: fc.nat(20) }).map((a) => new DocumentCommand('get', a.tenant, a.pick));
  const retry = fc.record({ tenant, pick: fc.nat(20) }).map((a) => new DocumentCommand('retry', a.tenant, a.pick));
  const settleOne = fc.nat(20).map((pick) => new SettleCommand(pick));
  const settleAll = fc.constant(new SettleCommand('all'));
  return [upload, upload, upload, list, list, list, get, get, retry, retry, settleOne, settleAll];
}
