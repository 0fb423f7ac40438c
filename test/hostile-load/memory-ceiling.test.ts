import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HostileLoadResult, hostileLoad, hostilePdfs } from '@docproc-kit/test-support/hostile-load.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Hostile PDFs on a real `docproc serve` with its default limits: two tenants upload at once a
// 2 MB PDF whose content stream inflates to 2 GiB, 499 drawn pages without text and 40 pages of
// 5000 x 5000 pt, while a third tenant keeps listing. The server's whole process tree (extraction
// processes included) is sampled from /proc every 50 ms. Minutes of work: the slow tier runs it.
const GIB = 1024 ** 3;
const KEYS: [string, string, string] = ['hostile-tenant-one', 'hostile-tenant-two', 'bystander-tenant'];
let dataDir: string;
let server: RunningCli;
let result: HostileLoadResult;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-hostile-'));
  const files = await hostilePdfs();
  server = await startCli(
    ['serve', '--data-dir', dataDir, '--processing-delay-ms', '0', '--log-level', 'warn', ...KEYS.flatMap((key) => ['--api-key', key])],
    { readyPath: '/openapi.json' },
  );
  result = await hostileLoad({ baseUrl: server.baseUrl, pid: server.child.pid!, keys: KEYS, files, deadlineMs: 240_000 });
  console.log(
    `hostile load: process tree peak ${(result.peakTreeBytes / 2 ** 20).toFixed(0)} MiB over ${result.samples} samples; ` +
      `settled after ${result.settledAfterMs} ms; bystander list p99 ${result.lists.p99Ms} ms (max ${result.lists.maxMs} ms, ${result.lists.count} lists)`,
  );
}, 300_000);
afterAll(async () => {
  await server?.stop('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

describe('hostile PDFs from two tenants at once, on a real docproc serve', () => {
  it('keep the whole process tree under 1.5 GiB', () => {
    expect(result.samples).toBeGreaterThan(100);
    expect(result.peakTreeBytes).toBeLessThan(1.5 * GIB);
  });

  it('all end, completed or failed, within 4 minutes', () => {
    expect(result.documents).toHaveLength(6);
    expect(result.documents.filter((d) => d.status === 'processing')).toEqual([]);
    expect(result.settledAfterMs).toBeLessThan(240_000);
  });

  it('the flate bombs fail unreadable_document naming the memory limit and the page', () => {
    const bombs = result.documents.filter((d) => d.filename === 'flate-bomb.pdf');
    expect(bombs).toHaveLength(2);
    for (const bomb of bombs) {
      expect(bomb).toMatchObject({
        status: 'failed',
        error: {
          code: 'unreadable_document',
          message: expect.stringMatching(/^Reading page 1 of 1 .*512 MiB of memory, the extraction memory limit/),
        },
      });
    }
  });

  it('every failure names the limit that stopped it and the page it had reached', () => {
    for (const doc of result.documents.filter((d) => d.status === 'failed')) {
      expect(doc.error?.message, doc.filename).toMatch(/(memory|time) limit/);
      expect(doc.error?.message, doc.filename).toMatch(/page \d+ of \d+/);
    }
  });

  it("another tenant's list is answered meanwhile, p99 under 500 ms", () => {
    expect(result.lists.count).toBeGreaterThan(100);
    expect(result.lists.p99Ms).toBeLessThan(500);
  });
});
