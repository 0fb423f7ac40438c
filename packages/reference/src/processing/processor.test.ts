import { until } from '@docproc-kit/test-support/reference-server.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stagedBytes } from '../http/upload/staged-file.js';
import type { DocumentRecord } from '../model.js';
import type { DocumentStore } from '../store/document-store.js';
import { createMemoryStore } from '../store/memory/memory-store.js';
import type { Extractor, FileSource } from './extraction.js';
import type { Extraction } from './lifecycle.js';
import { createProcessor, type Processor } from './processor.js';
import { createLocalRunQueue } from './queue/local-run-queue.js';
import { createSettings } from './settings.js';

// The processor on the in-memory store, with an extractor the test drives: each extraction waits until
// the test finishes it (or forever), so which document gets a slot is decided by events, not by timing.
let store: DocumentStore;
let processor: Processor | undefined;
beforeEach(() => {
  store = createMemoryStore();
});
afterEach(async () => {
  await processor?.stop();
  await store.close();
});

/** An extractor whose runs wait for `finish(name)`; `started` lists the files (by name) in the order their runs began. */
function heldExtractor(): Extractor & { started: string[]; finish(name: string): void; whenStarted(count: number): Promise<void> } {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  return {
    started,
    async extract(source: FileSource) {
      const name = new TextDecoder().decode(await source.bytes());
      started.push(name);
      return new Promise<Extraction>((resolve) => finishers.set(name, () => resolve({ ok: true, text: `TEXT of ${name}` })));
    },
    finish(name) {
      finishers.get(name)?.();
    },
    whenStarted: (count) => until(async () => started.length >= count, 10_000).then(() => {}),
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
    queue: createLocalRunQueue({ concurrency }),
    runBudgetMs,
    logger: { info: () => {}, error: () => {} },
  }));

async function upload(tenant: string, count: number): Promise<DocumentRecord[]> {
  const files = Array.from({ length: count }, (_, i) => {
    const bytes = new TextEncoder().encode(`${tenant}-${i}`);
    return {
      tenant,
      filename: `${tenant}-${i}.pdf`,
      content_type: 'application/pdf' as const,
      size_bytes: bytes.length,
      file: stagedBytes(bytes),
    };
  });
  return store.insert(files, new Date().toISOString());
}

const statusOf = async (record: DocumentRecord) => (await store.byId(record.id))?.status;

describe('the processor', () => {
  it("starts another tenant's document as soon as a slot frees, ahead of the rest of a long backlog", async () => {
    const extractor = heldExtractor();
    start(extractor);
    processor!.submit(await upload('tenant-a', 6));
    await extractor.whenStarted(1);
    const [other] = await upload('tenant-b', 1);
    processor!.submit([other!]);
    extractor.finish('tenant-a-0');
    await extractor.whenStarted(2);
    // One of tenant A's runs (the one already under way), then tenant B's.
    expect(extractor.started).toEqual(['tenant-a-0', 'tenant-b-0']);
    extractor.finish('tenant-b-0');
    expect(await until(async () => (await statusOf(other!)) === 'completed', 10_000)).toBe(true);
  });

  it('ends a run that overruns its budget as unreadable_document and gives its slot to the next document', async () => {
    const extractor = heldExtractor();
    const [hung, next] = await upload('tenant-a', 2);
    start(extractor, { runBudgetMs: 300 });
    processor!.submit([hung!, next!]);
    // tenant-a-0 is never finished: its budget ends it, and the slot goes to tenant-a-1.
    await extractor.whenStarted(2);
    extractor.finish('tenant-a-1');
    expect(await until(async () => (await statusOf(next!)) === 'completed', 10_000)).toBe(true);
    expect(await store.byId(hung!.id)).toMatchObject({
      status: 'failed',
      error: { code: 'unreadable_document', message: expect.stringContaining('time limit') },
    });
  });

  // No extractor shipped rejects (each resolves its own faults as a verdict), so no request reaches this guard
  // and the conformance suite cannot see it (packages/conformance/proofs/equivalent-mutants.md): it is proven here.
  it('ends a run whose extractor throws as a failed processing_error, worth a retry, with a message to show', async () => {
    const [doc] = await upload('tenant-a', 1);
    start({ extract: () => Promise.reject(new Error('an extractor bug')), close: async () => {} });
    processor!.submit([doc!]);
    expect(await until(async () => (await statusOf(doc!)) === 'failed', 10_000)).toBe(true);
    expect((await store.byId(doc!.id))?.error).toEqual({
      code: 'processing_error',
      message: expect.stringMatching(/^Processing failed unexpectedly; a retry may succeed\.$/),
    });
  });
});
