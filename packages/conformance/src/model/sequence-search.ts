import { join } from 'node:path';
import fc from 'fast-check';
import { curlTransportArgs } from '../definitions/transport-settings.js';
import { amendFailure, ConformanceFailure } from '../definitions/verdict.js';
import type { Http } from '../transport/http.js';
import { sequenceScript } from './script.js';
import type { Step } from './sequence-context.js';

/** One sequence as it ran on the target: its log and how many requests it made. */
export interface PlayedSequence {
  log: Step[];
  requests: number;
}

/** How the model run and the oracle run search for a difference: the same driver, their own steps. */
export interface SequenceSearch<I, S extends PlayedSequence> {
  /** `model` or `oracle`: the `--only` area that reruns it, and the folder of its reproducer's bodies. */
  area: 'model' | 'oracle';
  /** What a failing sequence shows, for the script's header ("whose answers differ from ..."). */
  differs: string;
  arbitrary: fc.Arbitrary<I>;
  /**
   * The fixed part: inputs played on every run, whatever `runs` and `timeMs`, all at once (so their waits
   * for processing overlap) before the random ones; `play` must bear sequences running side by side.
   */
  fixed?: I[];
  seed: number;
  /** How many random sequences at most (the fixed part is not counted). */
  runs: number;
  /** How long random sequences are started for, counted once the fixed part has ended. */
  timeMs: number;
  /** How long shrinking a failure may go on once it is found. */
  maxShrinkMs: number;
  baseUrl: string;
  http: Pick<Http, 'transport'>;
  reproDir: string;
  reproShownAs?: string;
  /** Called once every fixed sequence has ended with no difference, with how long they took. */
  onFixedEnd?(ms: number): void;
  /** Makes the `n`th sequence (1-based). */
  start(n: number): S;
  /** Plays the input on the sequence; throws a ConformanceFailure for a difference. */
  play(sequence: S, input: I): Promise<void>;
  /** After each sequence, failed or not (counts, closing a twin). */
  finish?(sequence: S): Promise<void> | void;
}

/** What a search did: sequences played (fixed, random and shrinking) and the requests they made. */
export interface SearchResult {
  sequences: number;
  requests: number;
  /** How many of those were the fixed part's, every one played to its end. */
  fixed: number;
  /** How long the fixed part took. */
  fixedMs: number;
}

/**
 * Plays the fixed part, then random sequences (fast-check, seeded) until the run's time or count is spent;
 * throws the first difference as a failure of the check it breaks, after shrinking the sequence to the
 * shortest one that still fails under that same check, with a runnable script of it as the reproducer. A
 * target that stops answering (any other error, or a failure with no response) is thrown at once, unshrunk.
 * The time budget bounds the random part only: a slow target makes the fixed part longer, never shorter.
 * @example const { sequences } = await searchSequences({ area: 'model', arbitrary, fixed, start, play, ... });
 */
export async function searchSequences<I, S extends PlayedSequence>(search: SequenceSearch<I, S>): Promise<SearchResult> {
  let sequences = 0;
  let requests = 0;
  let failure: Failed<S> | undefined;
  let first: { length: number; n: number } | undefined;
  let fatal: { error: unknown } | undefined;
  let shrinkDeadline = Number.POSITIVE_INFINITY;
  /** Plays one input: the difference it showed, if any; any other error is kept as fatal. */
  const attempt = async (input: I): Promise<Failed<S> | undefined> => {
    const n = ++sequences;
    const sequence = search.start(n);
    try {
      await search.play(sequence, input);
      return undefined;
    } catch (error) {
      if (error instanceof ConformanceFailure && error.record.noResponse === undefined) return { error, sequence, n };
      fatal ??= { error };
      return undefined;
    } finally {
      requests += sequence.requests;
      await search.finish?.(sequence);
    }
  };
  /** Keeps a difference: the first one starts the shrinking, a shorter one under the same check replaces it. */
  const keep = (found: Failed<S>): boolean => {
    // Shrinking keeps the difference it is shrinking: a shorter sequence that fails otherwise is not it.
    if (failure && failure.error.record.check !== found.error.record.check) return false;
    if (!failure) {
      shrinkDeadline = Date.now() + Math.min(search.timeMs, search.maxShrinkMs);
      first = { length: found.sequence.log.length, n: found.n };
    }
    failure = found;
    return true;
  };
  const fixed = search.fixed ?? [];
  const fixedStarted = Date.now();
  const fixedFound = await Promise.all(fixed.map((input) => attempt(input)));
  const fixedMs = Date.now() - fixedStarted;
  if (fatal) throw fatal.error;
  // Of fixed sequences failing side by side, the first of the list is kept, and replayed so fast-check shrinks it.
  const failedFixed = fixedFound.findIndex((f) => f !== undefined);
  if (failedFixed >= 0) keep(fixedFound[failedFixed]!);
  else search.onFixedEnd?.(fixedMs);
  const deadline = Date.now() + search.timeMs;
  const property = fc.asyncProperty(search.arbitrary, async (input) => {
    if (fatal || Date.now() > (failure ? shrinkDeadline : deadline)) return true;
    const found = await attempt(input);
    return !(found && keep(found));
  });
  if (failedFixed >= 0 || search.runs > 0)
    await fc.check(property, {
      seed: search.seed,
      // After a fixed sequence's difference, only its replay and shrinking: no random sequence.
      numRuns: failedFixed >= 0 ? 1 : search.runs,
      ...(failedFixed >= 0 ? { examples: [[fixed[failedFixed]!] as [I]] } : {}),
    });
  // Set inside the closures above, which TypeScript's narrowing does not see.
  const found = failure as Failed<S> | undefined;
  if (fatal) throw (fatal as { error: unknown }).error;
  if (found) throw reproducible(search, found, first!);
  return { sequences, requests, fixed: fixed.length, fixedMs };
}

type Failed<S> = { error: ConformanceFailure; sequence: S; n: number };

function reproducible<I, S extends PlayedSequence>(
  search: SequenceSearch<I, S>,
  { error, sequence: { log }, n }: { error: ConformanceFailure; sequence: S; n: number },
  first: { length: number; n: number },
): ConformanceFailure {
  const { area, seed } = search;
  const failedAt = log.findIndex((s) => s.failed);
  const script = sequenceScript(log, {
    bodyDir: join(search.reproDir, area, `sequence-${n}`),
    shownAs: join(search.reproShownAs ?? search.reproDir, area, `sequence-${n}`),
    transportArgs: curlTransportArgs(search.http.transport, search.baseUrl),
    header: [
      `docproc conformance ${area} run against ${search.baseUrl}, seed ${seed}: the shortest sequence found (${log.length} steps, from ${first.length})`,
      `${search.differs} (step ${failedAt + 1}). Rerun: --only ${area} --seed ${seed}`,
    ],
  });
  const where = `Step ${failedAt + 1} of ${log.length} of a random sequence (seed ${seed}; rerun with --only ${area} --seed ${seed}): sequence ${first.n} of the run (${first.length} steps) showed it first; ${log[failedAt]?.title ?? ''}.`;
  return amendFailure(error, { note: error.record.note ? `${where}\n${error.record.note}` : where, curl: script });
}
