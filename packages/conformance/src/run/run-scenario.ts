import { type RegisteredScenario, type ScenarioContext, ScenarioSkipped } from '../harness/registry.js';
import type { TestInput } from '../report/report.js';

/** One scenario's outcome, as the report takes it (without its file). */
export type ScenarioResult = Omit<TestInput, 'file'>;

/** The first line of an error's message, capped: scenarios fail with one short line, their verdicts are in the record. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/**
 * Runs one scenario: passed when it returns, skipped (with its note) when it skips, failed with the first
 * line of what it threw, or when it outlives `timeoutMs` (it then runs on unobserved, as nothing can stop it).
 */
export async function runScenario(scenario: RegisteredScenario, timeoutMs: number): Promise<ScenarioResult> {
  const context: ScenarioContext = {
    skip(note) {
      throw new ScenarioSkipped(note);
    },
  };
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Test timed out in ${timeoutMs}ms.`)), timeoutMs);
  });
  const ended = (state: ScenarioResult['state'], extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
    name: scenario.fullName,
    state,
    durationMs: Math.round(performance.now() - startedAt),
    ...(context.record ? { record: context.record } : {}),
    errors: [],
    ...extra,
  });
  try {
    await Promise.race([scenario.run(context), timedOut]);
    return ended('passed');
  } catch (error) {
    if (error instanceof ScenarioSkipped) return ended('skipped', error.note ? { note: error.note } : {});
    return ended('failed', { errors: [context.record?.crash ? context.record.crash.message : firstLine(error)] });
  } finally {
    clearTimeout(timer);
  }
}
