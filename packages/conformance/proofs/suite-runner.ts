// Test-only: a long-lived child process that runs the suite again and again through runConformance (the
// CLI's own entry point), so the mutation tests pay tsx's start-up and the suite's loading once per
// runner, not once per mutant. It lives apart from the proxies and the reference server, whose event
// loop it must not share.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type ConformanceOptions, UsageError } from '../src/definitions/config.js';
import { runConformance } from '../src/run/run-conformance.js';

/** A run request from the parent. */
export interface RunnerRequest {
  id: number;
  options: ConformanceOptions;
}

/** The answer: what the CLI would have exited with, printed and written. */
export interface RunnerReply {
  id: number;
  code: number;
  output: string;
  report?: string;
}

process.on('message', (message: RunnerRequest) => {
  void (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-runner-'));
    const report = join(dir, 'report.json');
    let output = '';
    const sink = () =>
      new Writable({
        write: (chunk, _encoding, done) => {
          output += String(chunk);
          done();
        },
      });
    let code: number;
    try {
      code = await runConformance({ ...message.options, report }, { stdout: sink(), stderr: sink() });
    } catch (error) {
      output += `${(error as Error).message}\n`;
      code = error instanceof UsageError ? 2 : 1;
    }
    let text: string | undefined;
    try {
      text = readFileSync(report, 'utf8');
    } catch {
      text = undefined;
    }
    rmSync(dir, { recursive: true, force: true });
    // Failed runs keep reproducer bodies for a human; a mutant's are expected, so they go.
    const runId = text ? (JSON.parse(text) as { runId?: string }).runId : undefined;
    if (runId) rmSync(join(tmpdir(), `docproc-conformance-${runId}`), { recursive: true, force: true });
    process.send!({ id: message.id, code, output, ...(text ? { report: text } : {}) } satisfies RunnerReply);
  })();
});
