import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import {
  contractFetch,
  type RunningReferenceServer,
  startReferenceInProcess,
  uploadTempFiles,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Idempotency-Key on uploads, against a real server whose clock the test moves.
const KEYS = ['tenant-a', 'tenant-b'];
const UPLOAD = '/api/v1/documents/upload_files';
let now = Date.parse('2024-05-02T09:00:00.000Z');
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;

beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceInProcess({ apiKeys: KEYS, clock: () => new Date(now) }), loadContract()]);
  call = contractFetch(server, contract);
});
afterAll(() => server?.close());

const file = (text: string) => new Blob([`%PDF-1.7\n% ${text}\n%%EOF\n`]);
function upload(key: string | undefined, files: Array<[Blob, string]>, apiKey = KEYS[0]) {
  const body = new FormData();
  for (const [blob, name] of files) body.append('files[]', blob, name);
  return call('uploadDocuments', UPLOAD, { method: 'POST', apiKey, body, headers: key === undefined ? {} : { 'Idempotency-Key': key } });
}
const total = async (apiKey = KEYS[0]) =>
  (await call('listDocuments', '/api/v1/documents/get_documents', { apiKey })).body.pagination.total as number;

describe('an upload repeated under the same Idempotency-Key', () => {
  it('replays the first 202, same ids and body, marked Idempotent-Replayed, creating nothing', async () => {
    const files: Array<[Blob, string]> = [
      [file('one'), 'one.pdf'],
      [file('two'), 'two.pdf'],
    ];
    const first = await upload('key-replay', files);
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await total();
    const again = await upload('key-replay', [
      [file('one'), 'one.pdf'],
      [file('two'), 'two.pdf'],
    ]);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await total()).toBe(before);
    expect(await uploadTempFiles(server.dataDir)).toEqual([]);
  });

  it.each([
    { what: 'other bytes', second: [[file('changed'), 'one.pdf']] as Array<[Blob, string]> },
    { what: 'another name', second: [[file('same'), 'renamed.pdf']] as Array<[Blob, string]> },
    {
      what: 'another order',
      second: [
        [file('b'), 'b.pdf'],
        [file('a'), 'a.pdf'],
      ] as Array<[Blob, string]>,
      first: [
        [file('a'), 'a.pdf'],
        [file('b'), 'b.pdf'],
      ] as Array<[Blob, string]>,
    },
  ])('with $what is a 409 idempotency_key_reused, and nothing is stored', async ({ what, second, first }) => {
    const key = `key-reused-${what}`;
    expect((await upload(key, first ?? [[file('same'), 'one.pdf']])).status).toBe(202);
    const before = await total();
    const res = await upload(key, second);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'idempotency_key_reused', detail: expect.stringContaining(key) });
    expect(await total()).toBe(before);
    expect(await uploadTempFiles(server.dataDir)).toEqual([]);
  });

  it('while the first is still being received is a 409 idempotency_key_in_use; afterwards it replays', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const head = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="files[]"; filename="slow.pdf"\r\n\r\n%PDF-1.7\n');
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(head),
      async pull(controller) {
        await held;
        controller.enqueue(new TextEncoder().encode('%%EOF\n\r\n--b--\r\n'));
        controller.close();
      },
    });
    const slow = server.fetch(server.baseUrl + UPLOAD, {
      method: 'POST',
      headers: { 'x-api-key': KEYS[0]!, 'idempotency-key': 'key-in-flight', 'content-type': 'multipart/form-data; boundary=b' },
      body,
      duplex: 'half',
    } as RequestInit);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const clash = await upload('key-in-flight', [[file('x'), 'slow.pdf']]);
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('idempotency_key_in_use');
    release();
    const first = await slow;
    expect(first.status).toBe(202);
    const firstBody = await first.json();
    const replay = await upload('key-in-flight', [[new Blob(['%PDF-1.7\n%%EOF\n']), 'slow.pdf']]);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(firstBody);
  });

  it('after a refused first attempt is handled afresh (failures are not remembered)', async () => {
    const refused = await upload('key-after-failure', [[new Blob(['plain text']), 'notes.png']]);
    expect(refused.status).toBe(415);
    const accepted = await upload('key-after-failure', [[file('good'), 'good.pdf']]);
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('idempotent-replayed')).toBeNull();
  });

  it('from another tenant is its own upload (keys are scoped to the API key)', async () => {
    const a = await upload('key-shared', [[file('s'), 's.pdf']], KEYS[0]);
    const b = await upload('key-shared', [[file('s'), 's.pdf']], KEYS[1]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.documents[0].document_id).not.toBe(a.body.documents[0].document_id);
  });

  it('after 24 hours creates new documents', async () => {
    const first = await upload('key-expiring', [[file('e'), 'e.pdf']]);
    now += 24 * 60 * 60 * 1000 - 1;
    expect((await upload('key-expiring', [[file('e'), 'e.pdf']])).headers.get('idempotent-replayed')).toBe('true');
    now += 2;
    const later = await upload('key-expiring', [[file('e'), 'e.pdf']]);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.documents[0].document_id).toBeGreaterThan(first.body.documents[0].document_id);
  });
});

describe('the Idempotency-Key header itself', () => {
  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a tab', 'key\tvalue'],
    ['with a non-ASCII character', 'clé'],
  ])('%s is a 400 naming the header', async (_what, key) => {
    const res = await upload(key, [[file('h'), 'h.pdf']]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ in: 'header', name: 'Idempotency-Key', message: expect.any(String) }]);
  });

  it('255 printable characters, spaces included, are fine', async () => {
    expect((await upload(`a b${'x'.repeat(252)}`, [[file('ok'), 'ok.pdf']])).status).toBe(202);
  });
});
