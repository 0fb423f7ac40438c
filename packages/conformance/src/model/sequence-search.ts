import { join } from 'node:path';
import fc from 'fast-check';
import { curlTransportArgs } from '../definitions/transport-settings.js';
import { amendFailure, ConformanceFailure } from '../definitions/verdict.js';
import type { Http } from '../transport/http.js';
import { sequenceScript } from './script.js';
import type { Step } from './sequence-context.js';

/** One random sequence as it ran on the target: its log and how many requests it made. */
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
  /** Inputs tried first, before the random ones. */
  examples?: I[];
  seed: number;
  runs: number;
  timeMs: number;
  /** How long shrinking a failure may go on once it is found. */
  maxShrinkMs: number;
  baseUrl: string;
  http: Pick<Http, 'transport'>;
  reproDir: string;
  reproShownAs?: string;
  /** Makes the `n`th sequence (1-based). */
  start(n: number): S;
  /** Plays the input on the sequence; throws a ConformanceFailure for a difference. */
  play(sequence: S, input: I): Promise<void>;
  /** After each sequence, failed or not (counts, closing a twin). */
  finish?(sequence: S): Promise<void> | void;
}

/**
 * Runs random sequences (fast-check, seeded) until the run's time or count is spent; throws the first
 * difference as a failure of the check it breaks, after shrinking the sequence to the shortest one that
 * still fails under that same check, with a runnable script of it as the reproducer. A target that stops
 * answering (any other error, or a failure with no response) is thrown at once, unshrunk.
 * @example const { sequences } = await searchSequences({ area: 'model', arbitrary, start, play, ... });
 */
export async function searchSequences<I, S extends PlayedSequence>(
  search: SequenceSearch<I, S>,
): Promise<{ sequences: number; requests: number }> {
  let sequences = 0;
  let requests = 0;
  let failure: { error: ConformanceFailure; sequence: S; n: number } | undefined;
  let first: { length: number; n: number } | undefined;
  let fatal: { error: unknown } | undefined;
  const deadline = Date.now() + search.timeMs;
  let shrinkDeadline = Number.POSITIVE_INFINITY;
  const property = fc.asyncProperty(search.arbitrary, async (input) => {
    if (fatal || Date.now() > (failure ? shrinkDeadline : deadline)) return true;
    const n = ++sequences;
    const sequence = search.start(n);
    try {
      await search.play(sequence, input);
      return true;
    } catch (error) {
      if (!(error instanceof ConformanceFailure) || error.record.noResponse !== undefined) {
        fatal = { error };
        return true;
      }
      // Shrinking keeps the difference it is shrinking: a shorter sequence that fails otherwise is not it.
      if (failure && failure.error.record.check !== error.record.check) return true;
      if (!failure) {
        shrinkDeadline = Date.now() + Math.min(search.timeMs, search.maxShrinkMs);
        first = { length: sequence.log.length, n };
      }
      failure = { error, sequence, n };
      return false;
    } finally {
      requests += sequence.requests;
      await search.finish?.(sequence);
    }
  });
  await fc.check(property, {
    seed: search.seed,
    numRuns: search.runs,
    ...(search.examples ? { examples: search.examples.map((e) => [e] as [I]) } : {}),
  });
  if (fatal) throw fatal.error;
  if (failure) throw reproducible(search, failure, first!);
  return { sequences, requests };
}

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
