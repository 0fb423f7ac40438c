import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { createKeyring } from '@docproc-kit/reference/api/keys.js';
import {
  contractFetch,
  fixture,
  type RunningReferenceServer,
  startReferenceInProcess,
} from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saltedTenants } from './auth.js';

// Keys and tenants over HTTP: each configured key is its own tenant; another tenant's document is
// a 404, never a 403; the dev key is off once keys are configured; keys never reach the disk.
const ALICE = 'alice-secret-key-1';
const BOB = 'bob-secret-key-2';
const API = '/api/v1/documents';
let server: RunningReferenceServer;
let contract: Contract;
let call: ReturnType<typeof contractFetch>;
let alicesDoc: number;

// On the lowdb store: one test reads every file of its data dir for keys.
beforeAll(async () => {
  [server, contract] = await Promise.all([startReferenceInProcess({ apiKeys: [ALICE, BOB], store: 'lowdb' }), loadContract()]);
  call = contractFetch(server, contract);
  const body = new FormData();
  body.append('files[]', await fixture('text.pdf'), 'alice-invoice.pdf');
  alicesDoc = (await call('uploadDocuments', `${API}/upload_files`, { method: 'POST', apiKey: ALICE, body })).body.documents[0].document_id;
  await server.service.processor.idle();
});
afterAll(() => server?.close());

describe('each key is its own tenant', () => {
  it('the owner sees the document; another tenant gets 404 for it, in every operation', async () => {
    expect((await call('getDocument', `${API}/get_document/${alicesDoc}`, { apiKey: ALICE })).status).toBe(200);
    const read = await call('getDocument', `${API}/get_document/${alicesDoc}`, { apiKey: BOB });
    const retry = await call('retryDocument', `${API}/retry_documents/${alicesDoc}`, { method: 'POST', apiKey: BOB });
    expect([read.status, read.body.code, retry.status, retry.body.code]).toEqual([404, 'not_found', 404, 'not_found']);
    // The 404 is word for word the one for an id that does not exist at all.
    const unknown = await call('getDocument', `${API}/get_document/987654`, { apiKey: BOB });
    expect(read.body.detail.replace(String(alicesDoc), 'ID')).toBe(unknown.body.detail.replace('987654', 'ID'));
  });

  it('lists, filters and searches see only the caller’s documents', async () => {
    for (const query of ['', '?search=alice', '?search=pelican', '?status_filter=completed']) {
      const bobs = await call('listDocuments', `${API}/get_documents${query}`, { apiKey: BOB });
      expect(bobs.body.pagination.total).toBe(0);
      const alices = await call('listDocuments', `${API}/get_documents${query}`, { apiKey: ALICE });
      expect(alices.body.pagination.total).toBe(1);
    }
  });

  it('a mock reset by one tenant leaves the other’s documents alone', async () => {
    const reset = await server.fetch(`${server.baseUrl}/_mock/reset`, { method: 'POST', headers: { 'x-api-key': BOB } });
    expect(await reset.json()).toMatchObject({ deleted_documents: 0 });
    expect((await call('getDocument', `${API}/get_document/${alicesDoc}`, { apiKey: ALICE })).status).toBe(200);
  });
});

describe('keys', () => {
  it.each([
    ['no key', undefined],
    ['an empty key', ''],
    ['the dev key, once keys are configured', 'docproc-dev-key'],
    ['a prefix of a valid key', ALICE.slice(0, -1)],
    ['a valid key with a suffix', `${ALICE}x`],
    ['a valid key in another case', ALICE.toUpperCase()],
  ])('%s is a 401 problem', async (_what, key) => {
    const res = await call('listDocuments', `${API}/get_documents`, {
      apiKey: null,
      headers: key === undefined ? {} : { 'x-api-key': key },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('never reach the disk: no file of the data dir holds a key, records hold a tenant id instead', async () => {
    const files = (await readdir(server.dataDir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const text = await readFile(join(file.parentPath, file.name), 'latin1');
      expect(text, file.name).not.toContain(ALICE);
      expect(text, file.name).not.toContain(BOB);
    }
    const records = JSON.parse(await readFile(join(server.dataDir, 'records', '0.json'), 'utf8'));
    expect(records.documents[0].tenant).toMatch(/^[0-9a-f]{32}$/);
  });

  it('map to stable tenants under one salt, and to other tenants under another data dir’s salt', () => {
    const a = createKeyring([ALICE, BOB], saltedTenants('salt-one-0123456789'));
    expect(a.tenantOf(ALICE)).toBe(createKeyring([ALICE], saltedTenants('salt-one-0123456789')).tenantOf(ALICE));
    expect(a.tenantOf(ALICE)).not.toBe(a.tenantOf(BOB));
    expect(a.tenantOf(ALICE)).not.toBe(createKeyring([ALICE], saltedTenants('salt-two-0123456789')).tenantOf(ALICE));
    expect(a.tenantOf('nope')).toBeUndefined();
  });

  it('without configured keys, the dev key docproc-dev-key works', async () => {
    const dev = await startReferenceInProcess();
    try {
      expect(dev.apiKeys).toEqual(['docproc-dev-key']);
      expect((await contractFetch(dev, contract)('listDocuments', `${API}/get_documents`)).status).toBe(200);
    } finally {
      await dev.close();
    }
  });
});
