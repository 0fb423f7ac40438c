import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../test/support/reference-server.js';
import type { DocumentRecord } from '../model.js';
import { openStore, type Store } from '../store/store.js';
import type { Extractor } from './extractor.js';
import type { Extraction } from './lifecycle.js';
import { createProcessor, type Processor } from './processor.js';
import { createSettings } from './settings.js';

// The processor on a real store, with an extractor that stands in for slow or hung extraction (the
// real ones would need minutes of CPU to show it): which document gets a slot, and when a run ends.
let dir: string;
let store: Store;
let processor: Processor | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-processor-'));
  store = await openStore(dir);
});
afterEach(async () => {
  await processor?.stop();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** An extractor whose runs take `ms` each (forever when undefined), recording which file started when. */
function timedExtractor(msFor: (path: string) => number | undefined): Extractor & { started: string[] } {
  const started: string[] = [];
  return {
    started,
    extract(path) {
      started.push(path);
      const ms = msFor(path);
      return new Promise<Extraction>((resolve) => {
        if (ms !== undefined) setTimeout(() => resolve({ ok: true, text: 'TEXT' }), ms);
      });
    },
    close: async () => {},
  };
}

const start = (extractor: Extractor, { concurrency = 1, runBudgetMs = 60_000 } = {}) =>
  (processor = createProcessor({
    store,
    extractor,
    settings: createSettings({ processing_delay_ms: 0, failure_rate: 0 }),
    random: () => 0.5,
    clock: () => new Date(),
    concurrency,
    runBudgetMs,
    logger: pino({ level: 'silent' }),
  }));

async function upload(tenant: string, count: number): Promise<DocumentRecord[]> {
  const files = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const tempPath = join(store.layout.tmpDir, `${tenant}-${i}-${Math.random()}.part`);
      await writeFile(tempPath, '%PDF-1.7');
      return { tenant, filename: `${tenant}-${i}.pdf`, content_type: 'application/pdf' as const, size_bytes: 8, tempPath };
    }),
  );
  return store.insert(files, new Date().toISOString());
}

describe('the processor', () => {
  it("starts another tenant's document as soon as a slot frees, ahead of the rest of a long backlog", async () => {
    const extractor = timedExtractor(() => 100);
    start(extractor);
    // Both stored first, so tenant B's document is queued while A's first run is still under way.
    const backlog = await upload('tenant-a', 6);
    const [other] = await upload('tenant-b', 1);
    processor!.submit(backlog);
    processor!.submit([other!]);
    expect(await until(() => store.byId(other!.id)!.status === 'completed', 10_000)).toBe(true);
    // One of tenant A's runs (the one already under way), then tenant B's.
    expect(extractor.started.indexOf(store.blobPath(other!.id))).toBe(1);
    await processor!.idle();
  }, 20_000);

  it('ends a run that overruns its budget as unreadable_document and gives its slot to the next document', async () => {
    const [hung, next] = await upload('tenant-a', 2);
    start(
      timedExtractor((path) => (path === store.blobPath(hung!.id) ? undefined : 10)),
      { runBudgetMs: 300 },
    );
    processor!.submit([hung!, next!]);
    expect(await until(() => store.byId(next!.id)!.status === 'completed', 10_000)).toBe(true);
    expect(store.byId(hung!.id)).toMatchObject({
      status: 'failed',
      error: { code: 'unreadable_document', message: expect.stringContaining('time limit') },
    });
  }, 20_000);
});
