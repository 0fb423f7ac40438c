// One long-lived judge of mutants (`npm run mutation` starts one per core it uses, pool.ts): it loads the
// instrumented core once (the sandbox hook sends the suite's imports of it to instrument.ts's copy) and then,
// for each mutant its parent sends, switches that mutant on (`globalThis.__stryker__.activeMutant`, read by
// every mutant switch at run time) and runs the suite's areas that reach it, one at a time, cheapest first,
// against a fresh core each. The first area with a failing check is run once more on a fresh core: a check
// that fails both times kills the mutant (a timing check can fail once on a busy machine whatever the
// mutant); one failing once only does not, and the next area runs.
//
// Before any mutant, `coverage` runs each area against the unmutated core and says which mutants each
// reached (the instrumenter's coverage counters, per `currentTestId`), and which ran as the modules loaded.
import { failedChecks } from './suite-run.js';

interface StrykerNamespace {
  activeMutant?: string;
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

/** What the parent asks. */
export type WorkerRequest = { type: 'coverage'; areas: string[] } | { type: 'judge'; id: string; areas: string[] };
/** What the worker answers. */
export type WorkerReply =
  | {
      type: 'coverage';
      static: string[];
      perArea: Record<string, string[]>;
      timesMs: Record<string, number>;
      failed: Record<string, string[]>;
    }
  | { type: 'judge'; id: string; killed: boolean; failedBoth: string[]; failedOnce: string[]; areasRun: string[] };

const strykerGlobal = globalThis as { __stryker__?: StrykerNamespace };
strykerGlobal.__stryker__ ??= {};
const ns = strykerGlobal.__stryker__;

async function coverage(areas: string[]): Promise<WorkerReply> {
  const perArea: Record<string, string[]> = {};
  const timesMs: Record<string, number> = {};
  const failed: Record<string, string[]> = {};
  for (const area of areas) {
    ns.currentTestId = area;
    const started = performance.now();
    const checks = await failedChecks([area]);
    timesMs[area] = Math.round(performance.now() - started);
    if (checks.size) failed[area] = [...checks];
    perArea[area] = Object.keys(ns.mutantCoverage?.perTest[area] ?? {});
  }
  ns.currentTestId = undefined;
  return { type: 'coverage', static: Object.keys(ns.mutantCoverage?.static ?? {}), perArea, timesMs, failed };
}

async function judge(id: string, areas: string[]): Promise<WorkerReply> {
  ns.activeMutant = id;
  const failedOnce = new Set<string>();
  const areasRun: string[] = [];
  try {
    for (const area of areas) {
      areasRun.push(area);
      const first = await failedChecks([area]);
      if (first.size === 0) continue;
      const second = await failedChecks([area]);
      const both = [...first].filter((check) => second.has(check));
      for (const check of [...first, ...second]) if (!both.includes(check)) failedOnce.add(check);
      if (both.length) return { type: 'judge', id, killed: true, failedBoth: both, failedOnce: [...failedOnce], areasRun };
    }
    return { type: 'judge', id, killed: false, failedBoth: [], failedOnce: [...failedOnce], areasRun };
  } finally {
    ns.activeMutant = undefined;
  }
}

process.on('message', async (request: WorkerRequest) => {
  const reply = request.type === 'coverage' ? await coverage(request.areas) : await judge(request.id, request.areas);
  process.send?.(reply);
});
process.send?.({ type: 'ready' });
