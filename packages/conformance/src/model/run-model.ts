import type { Contract } from '@docproc-kit/contract/load-contract.js';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { partitionCatalog } from '../inputs/partition-catalog.js';
import { rangeValues } from '../inputs/partitions.js';
import type { Judge } from '../judging/judge.js';
import type { ContractFacts } from '../rules/contract-facts.js';
import type { Http } from '../transport/http.js';
import type { Limits } from '../transport/limits.js';
import { changeWalk } from './change-walk.js';
import { type ListRanges, modelCommands } from './commands.js';
import { FILE_KINDS, type FileKind, KIND_FACTS, sequenceFiles } from './file-kinds.js';
import { type RunEnv, SequenceContext } from './sequence-context.js';
import { searchSequences } from './sequence-search.js';
import { ServiceModel } from './state.js';
import { TimestampGrain } from './timestamps.js';
import { timestampsWalk } from './timestamps-walk.js';

/** The longest a failing sequence is shrunk for (at most as long as new sequences were started for). */
export const MAX_SHRINK_MS = 10_000;

/** Everything a model run needs: the target and its judge, the contract's facts, and the run's bounds. */
export interface ModelRunSettings {
  http: Http<Judge>;
  judge: Judge;
  contract: Contract;
  facts: ContractFacts;
  limits: Pick<Limits, 'maxFiles' | 'maxFileBytes'>;
  timeoutMs: number;
  secondTenant: boolean;
  baseUrl: string;
  /** Where the reproducer script's request bodies go. */
  reproDir: string;
  /** How the script names `reproDir` (relative to the report's folder when there is one; default: `reproDir`). */
  reproShownAs?: string;
  /** A token unique to the suite run and `label`, in no other file's names (`conformance-<runId>-model-<label>`). */
  token(label: string): string;
  seed: number;
  /** How many sequences at most. */
  runs: number;
  /** How long to start new sequences for (and, once one fails, how long to look for a shorter one). */
  timeMs: number;
  /** Called once the fixed walk has ended with no difference, with how long it took. */
  onFixedEnd?(ms: number): void;
  /** How many commands a sequence has at most (default 20). */
  maxCommands?: number;
  /** See {@link RunEnv.changeGapMs} (default 20 ms). */
  changeGapMs?: number;
  /** See {@link RunEnv.firstPollMs} (default 50 ms). */
  firstPollMs?: number;
  /** How far the target's clock may be from the suite's (default {@link RUN_DEFAULTS}.clockSkewMs). */
  clockSkewMs?: number;
}

/** What a model run did. */
export interface ModelRunResult {
  /** Sequences run (the fixed walk and shrinking included). */
  sequences: number;
  /** How many of them were the fixed part's (played on every run, whatever the budget). */
  fixed: number;
  requests: number;
  ms: number;
}

/** The contract's names for the Idempotency-Key request header and the replay response header. */
export function idempotencyHeaders(contract: Contract): { key: string; replayed?: string } {
  const upload = contract.operation('uploadDocuments')?.definition;
  const key = ((upload?.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).find(
    (p) => p.in === 'header' && /idempotency/i.test(p.name),
  )?.name;
  if (!key) throw new Error('the contract documents no Idempotency-Key header on uploadDocuments');
  const accepted = upload?.responses?.['202'] as { headers?: Record<string, unknown> } | undefined;
  const replayed = Object.keys(accepted?.headers ?? {}).find((name) => /replay/i.test(name));
  return { key, ...(replayed ? { replayed } : {}) };
}

/** The accepted `page` and `limit` values of the contract's list, from the partition catalogue. */
function listRanges(contract: ModelRunSettings['contract']): ListRanges {
  const catalog = partitionCatalog(contract);
  return {
    page: rangeValues(catalog.scalar('listDocuments', 'query page')),
    limit: rangeValues(catalog.scalar('listDocuments', 'query limit')),
  };
}

/**
 * Runs random sequences of operations (fast-check model-based testing, seeded) against the target and
 * the model side by side; throws the first difference as a failure of the check it breaks, after
 * shrinking the sequence to the shortest one that still shows that same difference, with a runnable
 * script of it as the failure's reproducer. A target that stops answering is no model difference: its
 * failure is thrown at once, unshrunk.
 * @example const { sequences } = await runModel({ http, judge, contract, facts, limits, ..., seed: 42, runs: 30, timeMs: 20_000 });
 */
export async function runModel(settings: ModelRunSettings): Promise<ModelRunResult> {
  const started = Date.now();
  const headers = idempotencyHeaders(settings.contract);
  const probe = sequenceFiles();
  const kinds = FILE_KINDS.filter((k) => KIND_FACTS[k].contentType !== undefined && probe.bytes[k].length <= settings.limits.maxFileBytes);
  if (!kinds.includes('word')) throw new Error(`the deployment takes no file of ${probe.bytes.word.length} bytes: the model cannot run`);
  const env: RunEnv = {
    http: settings.http,
    judge: settings.judge,
    secondTenant: settings.secondTenant,
    defaultLimit: settings.facts.defaultLimit,
    maxLimit: settings.facts.maxLimit,
    maxFiles: settings.limits.maxFiles,
    kinds: kinds as FileKind[],
    timeoutMs: settings.timeoutMs,
    idempotencyHeader: headers.key,
    changeGapMs: settings.changeGapMs ?? 20,
    firstPollMs: settings.firstPollMs ?? 50,
  };
  // Ids are never reused: across every sequence of the run, and across tenants.
  const allIds = new Map<number, string>();
  const grain = new TimestampGrain();
  const ranges = listRanges(settings.contract);
  const { sequences, requests, fixed } = await searchSequences({
    area: 'model',
    differs: 'that makes the target differ from the model of the contract',
    arbitrary: fc.commands(modelCommands(settings.facts.statuses, ranges), {
      maxCommands: settings.maxCommands ?? 20,
      size: 'max',
    }),
    // The walk of every list view across every kind of change, and of one document's timestamps across its
    // run, on every run; then the random sequences. The timestamps walk comes first: of fixed walks failing
    // side by side, the first one's failure is the one reported.
    fixed: [timestampsWalk(), changeWalk(settings.facts.statuses, ranges)],
    maxShrinkMs: MAX_SHRINK_MS,
    ...settings,
    // The token ends in a letter after the number, so no sequence's token is a prefix of another's.
    start: (n) => new SequenceContext(env, settings.token(`s${n}z`), n === 1 ? probe : sequenceFiles()),
    play: async (real, commands) => {
      const model = new ServiceModel(real.files.word, allIds, headers.replayed, grain, settings.clockSkewMs);
      await fc.asyncModelRun(() => ({ model, real }), commands);
    },
  });
  return { sequences, fixed, requests, ms: Date.now() - started };
}
