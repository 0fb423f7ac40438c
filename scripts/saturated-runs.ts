// Measures whether the conformance suite's verdict holds on a saturated runner: N consecutive full runs
// (default 10) against the reference server behind nginx (deploy/nginx.conf) while CPU-bound busy loops
// (default 2) keep every core busy. Prints each run's exit code and duration, then one summary line; exits
// 0 only when every run exited 0. docs/conformance.md ("On a saturated runner") quotes its output.
// Usage: npx tsx --conditions=docproc-source scripts/saturated-runs.ts [--runs 10] [--burners 2]   (alone on the machine: it is the load)
import { parseArgs } from 'node:util';
import { runSaturated } from '@docproc-kit/test-support/saturated-runs.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, burners: { type: 'string', default: '2' } } });
const runs = Number(values.runs);
const burners = Number(values.burners);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(burners) || burners < 0) {
  console.error('usage: npx tsx scripts/saturated-runs.ts [--runs N >= 1] [--burners N >= 0]');
  process.exit(2);
}

const result = await runSaturated({
  runs,
  burners,
  onRun: (run, i) => {
    console.log(
      `run ${i + 1}/${runs}: exit ${run.code} in ${run.seconds.toFixed(1)} s (${run.passed} checks passed, ${run.warned} warned; load ${run.load.toFixed(2)})`,
    );
    if (run.code !== 0) console.log(`  not passed:\n    ${run.notPassed.join('\n    ')}\n${run.output.slice(-4000)}`);
  },
});
const codes = result.runs.map((r) => r.code);
const seconds = result.runs.map((r) => r.seconds);
const ok = codes.filter((c) => c === 0).length;
console.log(`command: ${result.command}`);
console.log(
  `${runs} consecutive runs with ${result.burners} busy loops on ${result.cores} cores: ${ok} exit 0 (exit codes ${codes.join(' ')}; ${Math.min(...seconds).toFixed(1)}-${Math.max(...seconds).toFixed(1)} s each)`,
);
process.exit(ok === runs ? 0 : 1);
