import type { Contract } from '@docproc-kit/contract/load-contract.js';
import fc from 'fast-check';
import { idempotencyHeaders } from '../model/run-model.js';
import { searchSequences } from '../model/sequence-search.js';
import { clientInputsSequence } from './client-inputs-sequence.js';
import { contractInputs } from './inputs.js';
import { type Op, opArbitrary, plainFile } from './ops.js';
import { pairsSequence } from './pairs-sequence.js';
import { documentStep, listStep, strayStep } from './read-steps.js';
import { createReferenceTwin } from './reference-twin.js';
import { type OracleEnv, OracleSequence } from './sequence.js';
import { sweepSequence } from './sweep.js';
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
  /** Called once the fixed sequences have ended with no difference. */
  onFixedEnd?(ms: number): void;
  /** Steps a sequence has at most (default 12). */
  maxSteps?: number;
}

/** What an oracle run did. */
export interface OracleRunResult {
  /** Sequences played: the fixed ones, the random ones and those shrinking tried. */
  sequences: number;
  /** How many of them were the fixed part's (every one played on every run). */
  fixed: number;
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
  // The same names under the same key with other bytes: other files.
  { kind: 'repeat', upload: 0, change: 'rebyte' },
  { kind: 'wait' },
  {
    kind: 'list',
    tenant: 0,
    auth: 'own',
    params: [{ param: 0, value: { cut: { doc: 0, from: 'content', before: 0, after: 6, spelling: 'upper' } } }],
    extra: 'none',
    requestId: null,
  },
  { kind: 'get', tenant: 0, auth: 'own', doc: { doc: 0, spelling: 0 }, requestId: null },
  { kind: 'retry', tenant: 0, auth: 'own', doc: { doc: 0, spelling: 0 }, requestId: null },
  // While the retried document processes again, its text is gone: only its name can match.
  {
    kind: 'list',
    tenant: 0,
    auth: 'own',
    params: [{ param: 0, value: { cut: { doc: 0, from: 'content', before: 0, after: 6, spelling: 'same' } } }],
    extra: 'none',
    requestId: null,
  },
  // A PDF past the reference server's page limit, read once its run has ended: its text, or a failure that says why.
  {
    kind: 'upload',
    tenant: 0,
    auth: 'own',
    files: [plainFile('pages', 'pages')],
    count: 'drawn',
    idempotency: null,
    requestId: null,
  },
  { kind: 'wait' },
  { kind: 'get', tenant: 0, auth: 'own', doc: { doc: 1, spelling: 0 }, requestId: null },
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
  const { maxFilename, requestIds } = contractInputs(settings.contract, 'probe');
  let inconclusive = 0;
  const { sequences, requests, fixed } = await searchSequences({
    area: 'oracle',
    differs: "whose answers differ from the reference core's",
    arbitrary: fc.array(opArbitrary, { minLength: 1, maxLength: settings.maxSteps ?? 12 }),
    // Beside the first, what real clients send (client-inputs-sequence.ts), each operation through each way
    // of sending the key and each X-Request-Id (sweep.ts), and every pair of the list's accepted parameter
    // partitions (pairs-sequence.ts): all at once, so their waits for processing overlap.
    fixed: [FIRST_SEQUENCE, clientInputsSequence(), sweepSequence(requestIds.length), pairsSequence(settings.contract)],
    maxShrinkMs: MAX_ORACLE_SHRINK_MS,
    ...settings,
    start: (n) => {
      const token = settings.token(`s${n}z`);
      const twin = createReferenceTwin({
        keys,
        maxFiles: Math.min(settings.limits.maxFiles, Number.MAX_SAFE_INTEGER),
        maxFileBytes: Math.min(settings.limits.maxFileBytes, Number.MAX_SAFE_INTEGER),
        maxFilenameLength: maxFilename,
      });
      return new OracleSequence(env, token, twin, contractInputs(settings.contract, token));
    },
    play: async (seq, ops) => {
      for (const op of ops) await runStep(seq, op);
    },
    finish: async (seq) => {
      inconclusive += seq.inconclusive;
      await seq.twin.close();
    },
  });
  return { sequences, fixed, requests, inconclusive };
}
