import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestRecord } from '../definitions/records.js';
import { createJudge } from '../judging/judge.js';
import { createHttp } from '../transport/http.js';
import { type PairRequest, sendPair } from './pair.js';
import { createReferenceTwin, type ReferenceTwin } from './reference-twin.js';

// A retry whose id is spelled `+7` may be refused (400) or read as 7: whichever the target does, the twin
// must do the same, or the two stop holding the same documents and every later answer differs.
const KEYS = { primary: 'pair-primary-key', secondary: 'pair-second-key' };
const contract = await loadContract();
const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'pair-test-'));
let server: RunningReferenceServer;
let twin: ReferenceTwin;
beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: [KEYS.primary, KEYS.secondary], processingDelayMs: 1, dataDir: join(scratch, 'data') });
  twin = createReferenceTwin({ keys: [KEYS.primary, KEYS.secondary], maxFiles: 20, maxFileBytes: 65_536, maxFilenameLength: 255 });
}, 60_000);
afterAll(async () => {
  await twin?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
}, 30_000);

const http = () => {
  const judge = createJudge('full');
  judge.use(createTestRecord());
  return createHttp({
    baseUrl: server.baseUrl,
    keys: KEYS,
    contract,
    strict: true,
    requestTimeoutMs: 10_000,
    requestIdPrefix: 'pair-test',
    reproDir: join(scratch, 'repro'),
    judge,
  });
};

async function upload(send: (r: Request) => Promise<Response>, origin: string): Promise<number> {
  const form = new FormData();
  form.append('files[]', new Blob(['%PDF-1.7\n%%EOF\n']), 'a.pdf');
  const response = await send(
    new Request(`${origin}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': KEYS.primary }, body: form }),
  );
  const body = (await response.json()) as { documents: Array<{ document_id: number }> };
  if (response.status !== 202) throw new Error(`upload: ${response.status} ${JSON.stringify(body)}`);
  return body.documents[0]!.document_id;
}

async function ended(send: (r: Request) => Promise<Response>, origin: string, id: number): Promise<{ status: string; attempts: number }> {
  for (let i = 0; i < 500; i++) {
    const response = await send(new Request(`${origin}/api/v1/documents/get_document/${id}`, { headers: { 'x-api-key': KEYS.primary } }));
    const doc = (await response.json()) as { status: string; attempts: number };
    if (doc.status !== 'processing') return doc;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`document ${id} never ended`);
}

describe('a retry sent in a spelling the contract lets a deployment refuse', () => {
  it.each([
    ['refused by the target (400): the twin is sent the same spelling, refuses it too, and retries nothing', '+', 400, 1],
    ['read as the number by the target (202): the twin is sent the plain number and retries too', '', 202, 2],
  ])(
    '%s',
    async (_, prefix, status, attempts) => {
      const targetId = await upload(fetch, server.baseUrl);
      const twinId = await upload(twin.send, 'http://reference.twin');
      twin.release(twinId, { ok: false, error: { code: 'processing_error', message: 'ended' } });
      await ended(fetch, server.baseUrl, targetId);
      await ended(twin.send, 'http://reference.twin', twinId);
      const path = (id: string) => `/api/v1/documents/retry_documents/${id}`;
      const request: PairRequest = {
        method: 'POST',
        target: { path: path(`${prefix}${targetId}`) },
        twin: { path: path(String(twinId)) },
        twinAsSpelled: { path: path(`+${twinId}`) },
        key: 'primary',
        headers: {},
        requestId: null,
        either: ['path document_id'],
      };
      const answers = await sendPair(request, {
        http: http(),
        twin,
        keys: KEYS,
        step: { title: 'retry', calls: [], model: '' },
        tenant: 'primary',
      });
      expect([answers.target.status, answers.twin.status]).toEqual([status, status]);
      twin.release(twinId, { ok: false, error: { code: 'processing_error', message: 'ended' } });
      expect((await ended(twin.send, 'http://reference.twin', twinId)).attempts).toBe(attempts);
    },
    60_000,
  );
});
