import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../../test/support/reference-server.js';
import type { UploadRejection } from '../../http/upload/rejection.js';
import type { ReceivedFile, ReceivedUpload } from '../../http/upload/upload-parser.js';
import type { Extractor } from '../processing/extractor.js';
import { createProcessor, type Processor } from '../processing/processor.js';
import { createSettings } from '../processing/settings.js';
import { openStore, type Store } from '../store/store.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { createUploadService, type UploadService } from './upload-service.js';

// The upload service on a real store in a temp dir and a real processor (its extractor answers at
// once: extraction is not the point here). Bodies are handed in as already-received temp files.
let dir: string;
let store: Store;
let processor: Processor;
let uploads: UploadService;
let now: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-upload-service-'));
  store = await openStore(dir);
  now = Date.parse('2024-05-02T09:00:00.000Z');
  const extractor: Extractor = { extract: async () => ({ ok: true, text: 'TEXT' }), close: async () => {} };
  processor = createProcessor({
    store,
    extractor,
    settings: createSettings({ processing_delay_ms: 0, failure_rate: 0 }),
    random: () => 0.5,
    clock: () => new Date(now),
    concurrency: 1,
    runBudgetMs: 60_000,
    logger: pino({ level: 'silent' }),
  });
  uploads = createUploadService({ store, processor, clock: () => new Date(now) });
});
afterEach(async () => {
  await processor.stop();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

let made = 0;
/** A body that, when read, has become one fsynced temp file per [filename, text], as the parser leaves them. */
const body =
  (...files: Array<[filename: string, text: string]>) =>
  async (): Promise<ReceivedUpload> => ({
    kind: 'received',
    files: await Promise.all(
      files.map(async ([filename, text]): Promise<ReceivedFile> => {
        const bytes = `%PDF-1.7\n% ${text}\n`;
        const tempPath = join(store.layout.tmpDir, `${++made}.part`);
        await writeFile(tempPath, bytes);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        return { filename, contentType: 'application/pdf', size: bytes.length, sha256, tempPath };
      }),
    ),
  });
const UNSUPPORTED: UploadRejection = { code: 'unsupported_media_type', detail: '"notes.png" is not a PDF, JPEG or PNG file.' };
const rejectedBody = async (): Promise<ReceivedUpload> => ({ kind: 'rejected', rejection: UNSUPPORTED });

const ids = (outcome: Awaited<ReturnType<UploadService['upload']>>) => ('documents' in outcome ? outcome.documents.map((d) => d.id) : []);
const total = async (tenant: string) => (await store.list(tenant, { page: 1, limit: 100 })).total;

type Earlier = { tenant?: string; key?: string; receive: () => Promise<ReceivedUpload>; later?: number };

describe('an upload', () => {
  it.each<{
    what: string;
    before?: Earlier;
    tenant?: string;
    key?: string;
    receive: () => Promise<ReceivedUpload>;
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
      what: 'under a key whose first upload was rejected',
      before: { key: 'k', receive: rejectedBody },
      key: 'k',
      receive: body(['a.pdf', 'a']),
      kind: 'created',
      stored: 1,
    },
    { what: 'whose body is rejected', key: 'k', receive: rejectedBody, kind: 'rejected', stored: 0 },
  ])(
    '$what is $kind, storing $stored documents and leaving no temp file',
    async ({ before, tenant = 'tenant-a', key, receive, kind, stored }) => {
      const earlier =
        before && (await uploads.upload({ tenant: before.tenant ?? tenant, idempotencyKey: before.key, receive: before.receive }));
      now += before?.later ?? 0;
      const count = await total(tenant);
      const outcome = await uploads.upload({ tenant, idempotencyKey: key, receive });
      expect(outcome.kind).toBe(kind);
      expect((await total(tenant)) - count).toBe(stored);
      expect(await readdir(store.layout.tmpDir)).toEqual([]);
      if (kind === 'replayed')
        expect(outcome).toEqual({ kind, documents: earlier && 'documents' in earlier ? earlier.documents : 'missing' });
      if (kind === 'key_reused') expect(outcome).toEqual({ kind, key });
      if (kind === 'rejected') expect(outcome).toEqual({ kind, rejection: UNSUPPORTED });
      if (kind === 'created') {
        expect(ids(outcome)).toHaveLength(stored);
        // Submitted to the processor: each document goes on to be processed.
        expect(await until(() => ids(outcome).every((id) => store.get(tenant, id)?.status === 'completed'), 10_000)).toBe(true);
      }
    },
  );

  it('replays its documents as the upload made them, even after they were processed', async () => {
    const first = await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) });
    expect(await until(() => store.get('tenant-a', ids(first)[0]!)?.status === 'completed', 10_000)).toBe(true);
    const again = await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) });
    expect(again).toEqual({ kind: 'replayed', documents: 'documents' in first ? first.documents : [] });
  });

  it('under a key whose first upload is still being received is key_in_use, its body never read; afterwards it replays', async () => {
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const slow = uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: () => arrived.then(body(['a.pdf', 'a'])) });
    let read = false;
    const clash = await uploads.upload({
      tenant: 'tenant-a',
      idempotencyKey: 'k',
      receive: () => {
        read = true;
        return body(['a.pdf', 'a'])();
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
        { filename: 'gone.pdf', contentType: 'application/pdf', size: 1, sha256: 'x', tempPath: join(store.layout.tmpDir, 'missing.part') },
      ],
    });
    await expect(uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: failing })).rejects.toThrow();
    expect((await uploads.upload({ tenant: 'tenant-a', idempotencyKey: 'k', receive: body(['a.pdf', 'a']) })).kind).toBe('created');
  });
});
