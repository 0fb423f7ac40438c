import { createHash } from 'node:crypto';
import { until } from '@docproc-kit/test-support/reference-server.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReceivedFile, ReceivedUpload, ReceiveOptions } from '../http/upload/received-upload.js';
import { notKept, stagedBytes } from '../http/upload/staged-file.js';
import type { UploadRefusal } from '../http/upload/upload-refusal.js';
import type { Extractor } from '../processing/extraction.js';
import { createProcessor, type Processor } from '../processing/processor.js';
import { createLocalRunQueue } from '../processing/queue/local-run-queue.js';
import { createSettings } from '../processing/settings.js';
import type { DocumentStore } from '../store/document-store.js';
import { createMemoryStore } from '../store/memory/memory-store.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { createUploadService, type UploadService } from './upload-service.js';

// The upload service on the in-memory store and a real processor (its extractor answers at once:
// extraction is not the point here). Bodies are handed in as already received.
let store: DocumentStore;
let processor: Processor;
let uploads: UploadService;
let now: number;
beforeEach(async () => {
  store = createMemoryStore();
  now = Date.parse('2024-05-02T09:00:00.000Z');
  const extractor: Extractor = { extract: async () => ({ ok: true, text: 'TEXT' }), close: async () => {} };
  processor = createProcessor({
    store,
    extractor,
    settings: createSettings({ processing_delay_ms: 0, failure_rate: 0 }),
    random: () => 0.5,
    clock: () => new Date(now),
    queue: createLocalRunQueue({ concurrency: 1 }),
    runBudgetMs: 60_000,
    logger: { info: () => {}, error: () => {} },
  });
  uploads = createUploadService({ store, processor, clock: () => new Date(now) });
});
afterEach(async () => {
  await processor.stop();
  await store.close();
});

/** How the bodies of this test were read: kept for a store, or only fingerprinted. */
const reads: ReceiveOptions[] = [];
/** A body that, when read, gives one file per [filename, text], as a receiver hands them over. */
const body =
  (...files: Array<[filename: string, text: string]>) =>
  async (options: ReceiveOptions): Promise<ReceivedUpload> => {
    reads.push(options);
    return {
      kind: 'received',
      files: files.map(([filename, text]): ReceivedFile => {
        const bytes = new TextEncoder().encode(`%PDF-1.7\n% ${text}\n`);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        return {
          filename,
          contentType: 'application/pdf',
          size: bytes.length,
          sha256,
          file: options.keep ? stagedBytes(bytes) : notKept(bytes.length),
        };
      }),
    };
  };
const UNSUPPORTED: UploadRefusal = { code: 'unsupported_media_type', detail: '"notes.png" is not a PDF, JPEG or PNG file.' };
const refusedBody = async (): Promise<ReceivedUpload> => ({ kind: 'refused', refusal: UNSUPPORTED });

const ids = (outcome: Awaited<ReturnType<UploadService['upload']>>) => ('documents' in outcome ? outcome.documents.map((d) => d.id) : []);
const total = async (tenant: string) => (await store.list(tenant, { page: 1, limit: 100 })).total;

type Earlier = { tenant?: string; key?: string; receive: (options: ReceiveOptions) => Promise<ReceivedUpload>; later?: number };

describe('an upload', () => {
  it.each<{
    what: string;
    before?: Earlier;
    tenant?: string;
    key?: string;
    receive: (options: ReceiveOptions) => Promise<ReceivedUpload>;
    kind: string;
    stored: number;
  }>([
    { what: 'without a key', receive: body(['a.pdf', 'a'], ['b.pdf', 'b']), kind: 'created', stored: 2 },
    { what: 'under a new key', key: 'k', receive: body(['a.pdf', 'a']), kind: 'created', stored: 1 },
    {
      what: 'of the same files under a used key',
      before: { key: 'k', receive: body(['a.pdf', 'a'], ['b.pdf', 'b']) },
      key: 'k',
      receive: body(['a.pdf', 'a'], ['b.pdf', 'b']),
      kind: 'replayed',
      stored: 0,
    },
    {
      what: 'of other bytes under a used key',
      before: { key: 'k', receive: body(['a.pdf', 'a']) },
      key: 'k',
      receive: body(['a.pdf', 'changed']),
      kind: 'key_reused',
      stored: 0,
    },
    {
      what: 'of the same files renamed under a used key',
      before: { key: 'k', receive: body(['a.pdf', 'a']) },
      key: 'k',
      receive: body(['b.pdf', 'a']),
      kind: 'key_reused',
      stored: 0,
    },
    {
      what: 'of the files in another order under a used key',
      before: { key: 'k', receive: body(['a.pdf', 'a'], ['b.pdf', 'b']) },
      key: 'k',
      receive: body(['b.pdf', 'b'], ['a.pdf', 'a']),
      kind: 'key_reused',
      stored: 0,
    },
    {
      what: "under another tenant's key",
      before: { tenant: 'tenant-b', key: 'k', receive: body(['a.pdf', 'a']) },
      key: 'k',
      receive: body(['a.pdf', 'a']),
      kind: 'created',
      stored: 1,
    },
    {
      what: 'under a key whose time ran out',
      before: { key: 'k', receive: body(['a.pdf', 'a']), later: IDEMPOTENCY_TTL_MS },
      key: 'k',
      receive: body(['a.pdf', 'a']),
      kind: 'created',
      stored: 1,
    },
    {
      what: 'under a key whose first upload was refused',
      before: { key: 'k', receive: refusedBody },
      key: 'k',
      receive: body(['a.pdf', 'a']),
      kind: 'created',
      stored: 1,
    },
    { what: 'whose body is refused', key: 'k', receive: refusedBody, kind: 'refused', stored: 0 },
  ])('$what is $kind, storing $stored documents', async ({ before, tenant = 'tenant-a', key, receive, kind, stored }) => {
    const earlier =
      before && (await uploads.upload({ tenant: before.tenant ?? tenant, idempotencyKey: before.key, receive: before.receive }));
    now += before?.later ?? 0;
    const count = await total(tenant);
    reads.length = 0;
    const outcome = await uploads.upload({ tenant, idempotencyKey: key, receive });
    expect(outcome.kind).toBe(kind);
    expect((await total(tenant)) - count).toBe(stored);
    // A repeat of a remembered upload is judged on its fingerprint alone: its bytes are never kept.
    if (kind === 'replayed' || kind === 'key_reused') expect(reads).toEqual([{ keep: false }]);
    if (kind === 'replayed')
      expect(outcome).toEqual({ kind, documents: earlier && 'documents' in earlier ? earlier.documents : 'missing' });
    if (kind === 'key_reused') expect(outcome).toEqual({ kind, key });
    if (kind === 'refused') expect(outcome).toEqual({ kind, refusal: UNSUPPORTED });
    if (kind === 'created') {
      expect(ids(outcome)).toHaveLength(stored);
      // Submitted to the processor: each document goes on to be processed.
      expect(
        await until(
          async () => (await Promise.all(ids(outcome).map((id) => store.get(tenant, id)))).every((d) => d?.status === 'completed'),
          10_000,
        ),
      ).toBe(true);
    }
  });

  it('replays its documents as the upload made them, even after they were processed', async () => {
    const first = await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) });
    expect(await until(async () => (await store.get('tenant-a', ids(first)[0]!))?.status === 'completed', 10_000)).toBe(true);
    const again = await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) });
    expect(again).toEqual({ kind: 'replayed', documents: 'documents' in first ? first.documents : [] });
  });

  it('under a key whose first upload is still being received is key_in_use, its body never read; afterwards it replays', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const slow = uploads.upload({
      tenant: 'tenant-a',
      idempotencyKey: 'k',
      receive: (options) => arrived.then(() => body(['a.pdf', 'a'])(options)),
    });
    let read = false;
    const clash = await uploads.upload({
      tenant: 'tenant-a',
      idempotencyKey: 'k',
      receive: (options) => {
        read = true;
        return body(['a.pdf', 'a'])(options);
      },
    });
    expect(clash).toEqual({ kind: 'key_in_use', key: 'k' });
    expect(read).toBe(false);
    // Another tenant's upload under the same key is its own.
    expect((await uploads.upload({ tenant: 'tenant-b', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) })).kind).toBe('created');
    arrive();
    const first = await slow;
    expect(first.kind).toBe('created');
    expect(await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) })).toEqual({
      ...first,
      kind: 'replayed',
    });
  });

  it('frees its key when storing fails, so a retry is handled afresh', async () => {
    const failing = async (): Promise<ReceivedUpload> => ({
      kind: 'received',
      files: [
        {
          filename: 'gone.pdf',
          contentType: 'application/pdf',
          size: 1,
          sha256: 'x',
          file: { size: 1, bytes: () => Promise.reject(new Error('gone')), discard: async () => {} },
        },
      ],
    });
    await expect(uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: failing })).rejects.toThrow();
    expect((await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) })).kind).toBe('created');
  });

  it.each([
    ['without a key', undefined],
    ['under a key', 'k'],
  ])(
    '%s, abandoned before it is stored (its client left, or the shutdown grace ended), stores nothing, discards its files and frees its key',
    async (_, key) => {
      const discarded: string[] = [];
      const abandoned = new AbortController();
      const receive = async (options: ReceiveOptions): Promise<ReceivedUpload> => {
        const received = await body(['a.pdf', 'a'])(options);
        if (received.kind !== 'received') return received;
        // The body has arrived; the request's signal is aborted before the store commits.
        abandoned.abort();
        const files = received.files.map((f) => ({ ...f, file: { ...f.file, discard: async () => void discarded.push(f.filename) } }));
        return { ...received, files };
      };
      expect(await uploads.upload({ tenant: 'tenant-a', idempotencyKey: key, receive, signal: abandoned.signal })).toEqual({
        kind: 'abandoned',
      });
      expect(await total('tenant-a')).toBe(0);
      expect(discarded).toEqual(['a.pdf']);
      expect((await uploads.upload({ tenant: 'tenant-a', idempotencyKey: key, receive: body(['a.pdf', 'a']) })).kind).toBe('created');
    },
  );
});
