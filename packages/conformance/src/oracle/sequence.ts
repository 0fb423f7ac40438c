import { createHash } from 'node:crypto';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';
import type { AliasOf, Answer, OracleObservation } from '../checks/differential.js';
import type { Check } from '../definitions/check.js';
import type { KeyChoice } from '../definitions/exchange.js';
import type { Judge } from '../judging/judge.js';
import type { Step } from '../model/sequence-context.js';
import type { Tenant } from '../model/state.js';
import type { Http } from '../transport/http.js';
import { pollUntil, sleep } from '../transport/polling.js';
import type { OracleInputs } from './inputs.js';
import type { Auth } from './ops.js';
import { type OracleFile, outcomeFor } from './oracle-files.js';
import { type PairAnswers, type PairRequest, sendPair } from './pair.js';
import type { ReferenceTwin } from './reference-twin.js';

/** The operations the oracle's verdicts are grouped by, each a check of its own. */
export type OracleArea = 'upload' | 'list' | 'read' | 'retry';

/** What every sequence of an oracle run shares. */
export interface OracleEnv {
  http: Http<Judge>;
  judge: Judge;
  checks: Record<OracleArea, Check<OracleObservation>>;
  keys: { primary: string; secondary?: string };
  limits: { maxFiles: number; maxFileBytes: number };
  idempotencyHeader: string;
  /** The multipart field files go under (`files[]`). */
  fileField: string;
  /** Every operation's method and path template, by operationId. */
  operations: Record<string, { method: string; path: string }>;
  timeoutMs: number;
}

/** One part of an upload: its file, name and how the part is written. */
export interface PartPlan {
  file: OracleFile;
  filename: string;
  field: string;
  contentType: string;
  /** Written as `filename*` (RFC 5987). */
  star: boolean;
}

/** An upload as sent: enough to send it again exactly. */
export interface UploadPlan {
  tenant: number;
  auth: Auth;
  parts: PartPlan[];
  key: string | null;
}

/** A document the sequence made: its id on each side, its file, and whether both sides' runs have ended. */
export interface OracleDoc {
  alias: string;
  tenant: number;
  targetId: number;
  twinId: number;
  file: OracleFile;
  filename: string;
  /** Its `created_at` as the target first answered it (lists are ordered by each side's own). */
  targetCreated?: string;
  settled: boolean;
}

const TERMINAL = new Set(['completed', 'failed']);

/** The state of one sequence on both sides: the documents, the uploads, the log; and the lockstep itself. */
export class OracleSequence {
  readonly docs: OracleDoc[] = [];
  readonly log: Step[] = [];
  /** Every upload sent, accepted or not, so a later step can send it again. */
  readonly uploads: UploadPlan[] = [];
  requests = 0;
  private serial = 0;
  /** Requests answered while a document changed, so their answers were not compared. */
  inconclusive = 0;

  /** In the text of every PDF the sequence writes, and in no other file: a short token, as a page's line is short. */
  readonly textToken: string;

  constructor(
    readonly env: OracleEnv,
    readonly token: string,
    readonly twin: ReferenceTwin,
    readonly inputs: OracleInputs,
  ) {
    this.textToken = `zq${createHash('sha1').update(token).digest('hex').slice(0, 10)}`;
  }

  /** A number unique within the sequence (files, request ids). */
  next(): number {
    return ++this.serial;
  }

  /** Starts a step in the log. */
  step(title: string): Step {
    const step: Step = { title, calls: [], model: '' };
    this.log.push(step);
    return step;
  }

  /** The X-Request-Id of a request: one of the sequence's own, a value at or past the contract's limits, or none. */
  requestId(edge: null | { edge: number }): string | null {
    if (edge === null || !this.inputs.requestIds.length) return `${this.token}-r${this.next()}`;
    const i = edge.edge % (this.inputs.requestIds.length + 1);
    return i === this.inputs.requestIds.length ? null : this.inputs.requestIds[i]!;
  }

  tenantOf(tenant: number): Tenant {
    return tenant === 1 && this.env.keys.secondary !== undefined ? 'secondary' : 'primary';
  }

  keyOf(tenant: number, auth: Auth): KeyChoice {
    if (auth === 'none') return 'none';
    if (auth === 'unknown') return { literal: `${this.token}-unknown-key` };
    if (auth === 'near-miss') return { variant: 'swapped-case' };
    if (auth === 'misplaced' && this.inputs.misplacedKey) return { misplaced: this.inputs.misplacedKey };
    if (auth === 'misplaced') return 'none';
    return this.tenantOf(tenant);
  }

  readonly aliases: { target: AliasOf; reference: AliasOf } = {
    target: (id) => this.docs.find((d) => d.targetId === id)?.alias,
    reference: (id) => this.docs.find((d) => d.twinId === id)?.alias,
  };

  /** Sends `request` to both sides, judging nothing yet. */
  send(step: Step, tenant: number, request: PairRequest): Promise<PairAnswers> {
    this.requests++;
    return sendPair(request, { http: this.env.http, twin: this.twin, keys: this.env.keys, step, tenant: this.tenantOf(tenant) });
  }

  /**
   * Sends `request` to both sides and judges the answers; undefined (nothing judged) when a document of
   * `watch` that was processing before the request had ended on the target after it.
   */
  async exchange(
    step: Step,
    area: OracleArea,
    tenant: number,
    request: PairRequest,
    watch: OracleDoc[] = [],
    project?: (a: Answer) => Answer,
    reorder?: (twin: Answer) => Promise<Answer>,
  ): Promise<PairAnswers | undefined> {
    const unsettled = watch.filter((d) => !d.settled);
    const answers = await this.send(step, tenant, request);
    for (const doc of unsettled) await this.sync(step, doc);
    if (unsettled.some((d) => d.settled)) {
      this.inconclusive++;
      return undefined;
    }
    if (reorder) answers.twin = await reorder(answers.twin);
    this.judge(step, area, request, answers, project);
    return answers;
  }

  /** Fails the area's check with every difference between the two answers, or records its pass. */
  judge(
    step: Step,
    area: OracleArea,
    request: PairRequest,
    { target, twin, exchange }: PairAnswers,
    project?: (a: Answer) => Answer,
  ): void {
    step.target = summary(target);
    step.model = summary(twin);
    const observation = {
      kind: 'pair',
      target: project ? project(target) : target,
      reference: project ? project(twin) : twin,
      sent: request,
      aliases: this.aliases,
    } as const;
    try {
      this.env.judge.check(this.env.checks[area], observation, exchange);
    } catch (failure) {
      step.failed = true;
      throw failure;
    }
  }

  /** Reads `doc` on the target once; if its run has ended, ends the twin's the same way. */
  async sync(step: Step, doc: OracleDoc): Promise<boolean> {
    if (doc.settled) return true;
    const { http } = this.env;
    const prepared = http.prepare({ operation: 'getDocument', params: { document_id: doc.targetId }, key: this.tenantOf(doc.tenant) });
    step.calls.push({
      tenant: this.tenantOf(doc.tenant),
      request: prepared.request,
      names: { id: doc.targetId, alias: doc.alias },
      poll: true,
    });
    this.requests++;
    const exchange = await http.dispatch(prepared);
    const body = exchange.json as { status?: string; content?: unknown; error?: { code?: string; message?: string } } | undefined;
    if (exchange.status !== 200 || !TERMINAL.has(String(body?.status))) return false;
    await this.endTwinRun(doc, outcomeFor(doc.file, body!));
    doc.settled = true;
    return true;
  }

  /** Waits until `docs` have all ended on the target (polling), ending the twin's runs alike. */
  async settle(step: Step, docs: OracleDoc[] = this.docs): Promise<void> {
    const pending = async () => {
      let count = 0;
      for (const doc of docs) if (!(await this.sync(step, doc))) count++;
      return count;
    };
    const { value, settled } = await pollUntil(pending, (count) => count === 0, { timeoutMs: this.env.timeoutMs });
    if (!settled) this.env.judge.check(this.env.checks.read, { kind: 'still-processing', pending: value, timeoutMs: this.env.timeoutMs });
  }

  /** Ends the twin's run of `doc` and waits until the twin has written its result. */
  async endTwinRun(doc: OracleDoc, extraction: Extraction): Promise<void> {
    this.twin.release(doc.twinId, extraction);
    const key = doc.tenant === 1 && this.env.keys.secondary !== undefined ? this.env.keys.secondary : this.env.keys.primary;
    for (let i = 0; i < 2000; i++) {
      const response = await this.twin.send(
        new Request(`http://reference.twin/api/v1/documents/get_document/${doc.twinId}`, { headers: { 'x-api-key': key } }),
      );
      const body = (await response.json()) as { status?: string };
      if (body.status !== 'processing') return;
      await sleep(1);
    }
    throw new Error(`conformance suite bug: the reference twin never ended the run of ${doc.alias}`);
  }
}

function summary(answer: Answer): string {
  const code = (answer.body as { code?: unknown } | undefined)?.code;
  return `${answer.status}${typeof code === 'string' ? ` ${code}` : ''}`;
}
