// Test-only: runs the full profile through a real Squid with Debian's default squid.conf against the
// reference server (default per-file limit, 25 MiB) N times and prints each run's exit code, time, the
// checks that did not pass and the hops the suite said lost an answer; for measuring by hand, on the
// compiled CLI (`npm run build` first):
// `npx tsx --conditions=docproc-source packages/conformance/proofs/measure-squid.ts [runs=3] [max-file-bytes=26214400]`.
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { checksNotPassed, fullProfileArgs, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { startSquid } from '@docproc-kit/test-support/squid.js';

const runs = Number(process.argv[2] ?? 3);
const maxFileBytes = Number(process.argv[3] ?? 26_214_400);
const keys = ['proxied-key', 'proxied-second-key'];
const server = await startReferenceServer({ apiKeys: keys, maxFiles: 20, maxFileBytes, processingDelayMs: 200 });
const squid = await startSquid();
try {
  for (let i = 1; i <= runs; i++) {
    const started = Date.now();
    const run = await runSuite(fullProfileArgs(server.baseUrl, { keys, maxFileBytes, requestTimeoutMs: 20_000 }), {
      env: { HTTP_PROXY: squid.url },
      timeoutMs: 600_000,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const hops = (run.report?.checks ?? []).flatMap((c) =>
      c.warnings.flatMap((w) => /lost the target's \d+|ended without an answer/.exec(w.message)?.[0] ?? []),
    );
    console.log(
      `run ${i}: exit ${run.code} in ${seconds} s; not passed: ${JSON.stringify(checksNotPassed(run))}; hops: ${JSON.stringify(hops)}`,
    );
    if (run.code !== 0) console.log(run.output.slice(-6000));
  }
  const log = squid.accessLog();
  const lines = log.split('\n').filter(Boolean);
  console.log(
    `squid: ${lines.length} requests, ${lines.filter((l) => l.includes('_ABORTED/')).length} aborted (TCP_MISS_ABORTED and the like)`,
  );
} finally {
  await squid.stop();
  await server.close();
}
