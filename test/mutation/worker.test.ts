import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { instrumentCore } from '../../scripts/mutation/instrument.js';
import { startWorker, type Worker } from '../../scripts/mutation/pool.js';
import type { WorkerReply } from '../../scripts/mutation/worker.js';

// A real worker process on a real instrumented copy of one file of the core, judged by one short area of the
// suite: what `npm run mutation` does for each mutant, at the size of a test.
const sandbox = fileURLToPath(new URL(`../../reports/mutation/test-sandbox-${process.pid}/`, import.meta.url));
const FILE = 'packages/reference/src/http/fetch-api.ts';

describe('a mutation worker', () => {
  let worker: Worker | undefined;
  afterAll(() => {
    worker?.close();
    rmSync(sandbox, { recursive: true, force: true });
  });

  it('learns which mutants an area reaches, kills one of them by switching it on, and judges the core unmutated again after', async () => {
    const mutants = await instrumentCore([FILE], sandbox);
    // Found by its line's text, not its number, so a refactor above it does not lose it.
    const line = readFileSync(FILE, 'utf8')
      .split('\n')
      .findIndex((text) => text.includes("headers.set('X-Request-Id', requestId)"));
    const requestIdHeader = mutants.find(
      (m) => m.mutatorName === 'StringLiteral' && m.location.start.line === line && m.replacement === '""',
    );
    expect(requestIdHeader, 'the mutant that renames the X-Request-Id header').toBeDefined();
    worker = await startWorker(sandbox);

    const coverage = (await worker.ask({ type: 'coverage', areas: ['get'] }, 240_000)) as Extract<WorkerReply, { type: 'coverage' }>;
    expect(coverage.failed).toEqual({});
    expect(coverage.perArea.get).toContain(requestIdHeader!.id);

    const judged = await worker.ask({ type: 'judge', id: requestIdHeader!.id, areas: ['get'] }, 240_000);
    expect(judged, JSON.stringify(judged)).toMatchObject({ type: 'judge', killed: true, areasRun: ['get'] });
    expect((judged as { failedBoth: string[] }).failedBoth.length).toBeGreaterThan(0);

    const none = await worker.ask({ type: 'judge', id: 'no such mutant', areas: ['get'] }, 240_000);
    expect(none).toMatchObject({ type: 'judge', killed: false, failedBoth: [] });
  }, 900_000);
});
