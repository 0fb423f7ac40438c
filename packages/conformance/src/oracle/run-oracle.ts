import { join } from 'node:path';
import fc from 'fast-check';
import { amendFailure, ConformanceFailure } from '../judging/verdict.js';
import { curlTransportArgs } from '../kit/transport-settings.js';
import { idempotencyHeaders } from '../model/run-model.js';
import { sequenceScript } from '../model/script.js';
import type { Contract } from '../rules/contract.js';
import { contractInputs } from './inputs.js';
import { type Op, opArbitrary } from './ops.js';
import { documentStep, listStep, strayStep } from './read-steps.js';
import { createReferenceTwin } from './reference-twin.js';
import { type OracleEnv, OracleSequence } from './sequence.js';
import { repeatStep, uploadStep } from './upload-steps.js';

/** The longest a failing sequence is shrunk for. */
export const MAX_ORACLE_SHRINK_MS = 30_000;

/** Everything an oracle run needs besides the shared environment. */
export interface OracleRunSettings extends Omit<OracleEnv, 'operations' | 'fileField' | 'idempotencyHeader'> {
  contract: Contract;
  fileField: string;
  baseUrl: string;
  reproDir: string;
  reproShownAs?: string;
  /** A token unique to the suite run and `label`. */
  token(label: string): string;
  seed: number;
  runs: number;
  /** How long to start new sequences for (a failing one is then shrunk for at most {@link MAX_ORACLE_SHRINK_MS}). */
  timeMs: number;
  /** Steps a sequence has at most (default 12). */
  maxSteps?: number;
}

/** What an oracle run did. */
export interface OracleRunResult {
  sequences: number;
  requests: number;
  /** Reads sent again because a document changed while they were answered. */
  inconclusive: number;
}

/**
 * The first sequence of every run, whatever the budget: one of each operation on a document read to its end,
 * so a slow deployment whose budget allows one sequence still has every check judged; then a search of the
 * text a retry took away.
 */
const FIRST_SEQUENCE: Op[] = [
  {
    kind: 'upload',
    tenant: 0,
    auth: 'own',
    files: [
      {
        content: 'text',
        before: 'ß ',
        after: ' Ω',
        length: 'drawn',
        extension: 0,
        word: 'Straße',
        declared: 0,
        star: false,
        misnamed: false,
      },
    ],
    count: 'drawn',
    idempotency: { key: 0 },
    requestId: null,
  },
  { kind: 'repeat', upload: 0, change: 'none' },
  { kind: 'wait' },
  {
    kind: 'list',
    tenant: 0,
    auth: 'own',
    params: [{ param: 0, value: { cut: { doc: 0, from: 'content', before: 0, after: 6, spelling: 'upper' } } }],
    extra: 'none',
    requestId: null,
  },
  { kind: 'get', tenant: 0, auth: 'own', doc: { doc: 0, spelling: 0 } },
  { kind: 'retry', tenant: 0, auth: 'own', doc: { doc: 0, spelling: 0 } },
  // While the retried document processes again, its text is gone: only its name can match.
  {
    kind: 'list',
    tenant: 0,
    auth: 'own',
    params: [{ param: 0, value: { cut: { doc: 0, from: 'content', before: 0, after: 6, spelling: 'same' } } }],
    extra: 'none',
    requestId: null,
  },
];

function operationsOf(contract: Contract): Record<string, { method: string; path: string }> {
  return Object.fromEntries(contract.operations.map((op) => [op.operationId, { method: op.method.toUpperCase(), path: op.path }]));
}

async function runStep(seq: OracleSequence, op: Op): Promise<void> {
  switch (op.kind) {
    case 'upload':
      return uploadStep(seq, op);
    case 'repeat':
      return repeatStep(seq, op);
    case 'list':
      return listStep(seq, op);
    case 'get':
    case 'retry':
      return documentStep(seq, op);
    case 'stray':
      return strayStep(seq, op);
    case 'wait':
      if (seq.docs.some((d) => !d.settled)) await seq.settle(seq.step('wait until every document has ended on the target'));
  }
}

/**
 * Runs random sequences against the target and, in lockstep, against the reference core in this process
 * (the twin); throws the first answer that differs in a way the contract does not allow, after shrinking
 * the sequence to the shortest one that still shows a difference under the same check, with a runnable
 * script of it. A target that stops answering is thrown at once, unshrunk.
 * @example await runOracle({ http, judge, checks, contract, keys, limits, fileField: 'files[]', ..., seed: 42, runs: 20, timeMs: 10_000 });
 */
export async function runOracle(settings: OracleRunSettings): Promise<OracleRunResult> {
  const env: OracleEnv = {
    ...settings,
    operations: operationsOf(settings.contract),
    idempotencyHeader: idempotencyHeaders(settings.contract).key,
  };
  const keys = [settings.keys.primary, ...(settings.keys.secondary !== undefined ? [settings.keys.secondary] : [])];
  const maxFilename = contractInputs(settings.contract, 'probe').maxFilename;
  let sequences = 0;
  let requests = 0;
  let inconclusive = 0;
  let failure: { error: ConformanceFailure; seq: OracleSequence; n: number } | undefined;
  let first: { length: number; n: number } | undefined;
  let fatal: { error: unknown } | undefined;
  const deadline = Date.now() + settings.timeMs;
  let shrinkDeadline = Number.POSITIVE_INFINITY;
  const property = fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: settings.maxSteps ?? 12 }), async (ops) => {
    if (fatal || Date.now() > (failure ? shrinkDeadline : deadline)) return true;
    const n = ++sequences;
    const token = settings.token(`s${n}z`);
    const twin = createReferenceTwin({
      keys,
      maxFiles: Math.min(settings.limits.maxFiles, Number.MAX_SAFE_INTEGER),
      maxFileBytes: Math.min(settings.limits.maxFileBytes, Number.MAX_SAFE_INTEGER),
      maxFilenameLength: maxFilename,
    });
    const seq = new OracleSequence(env, token, twin, contractInputs(settings.contract, token));
    try {
      for (const op of ops) await runStep(seq, op);
      return true;
    } catch (error) {
      if (!(error instanceof ConformanceFailure) || error.record.noResponse !== undefined) {
        fatal = { error };
        return true;
      }
      if (failure && failure.error.record.check !== error.record.check) return true;
      if (!failure) {
        shrinkDeadline = Date.now() + MAX_ORACLE_SHRINK_MS;
        first = { length: seq.log.length, n };
      }
      failure = { error, seq, n };
      return false;
    } finally {
      requests += seq.requests;
      inconclusive += seq.inconclusive;
      await twin.close();
    }
  });
  await fc.check(property, { seed: settings.seed, numRuns: settings.runs, examples: [[FIRST_SEQUENCE]] });
  if (fatal) throw fatal.error;
  if (failure) {
    const { error, seq, n } = failure;
    const failedAt = seq.log.findIndex((s) => s.failed);
    const script = sequenceScript(seq.log, {
      bodyDir: join(settings.reproDir, 'oracle', `sequence-${n}`),
      shownAs: join(settings.reproShownAs ?? settings.reproDir, 'oracle', `sequence-${n}`),
      transportArgs: curlTransportArgs(settings.http.transport, settings.baseUrl),
      header: [
        `docproc conformance oracle run against ${settings.baseUrl}, seed ${settings.seed}: the shortest sequence found (${seq.log.length} steps, from ${first?.length})`,
        `whose answers differ from the reference core's (step ${failedAt + 1}). Rerun: --only oracle --seed ${settings.seed}`,
      ],
    });
    const where = `Step ${failedAt + 1} of ${seq.log.length} of a random sequence (seed ${settings.seed}; rerun with --only oracle --seed ${settings.seed}): sequence ${first?.n} of the run (${first?.length} steps) showed it first; ${seq.log[failedAt]?.title ?? ''}.`;
    throw amendFailure(error, { note: error.record.note ? `${where}\n${error.record.note}` : where, curl: script });
  }
  return { sequences, requests, inconclusive };
}
