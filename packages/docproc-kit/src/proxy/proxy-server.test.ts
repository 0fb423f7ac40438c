import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { typedClientTraffic } from '@docproc-kit/test-support/client-traffic.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJudging } from './judging.js';
import { createProxyServer, type ProxyServer } from './proxy-server.js';

const KEY = 'docproc-dev-key';
let server: RunningReferenceServer;
let proxy: ProxyServer;
let proxyUrl: string;
const lines: string[] = [];

beforeAll(async () => {
  server = await startReferenceServer({ processingDelayMs: 20, maxFileBytes: 32 * 1024 * 1024 });
  const settings = { target: server.baseUrl, spec: bundledSpecPath, strict: false, bodyCap: 2 * 1024 * 1024, keep: 1_000 };
  const judging = createLocalJudging(settings, await loadBundledContract(), (line) => lines.push(line));
  proxy = createProxyServer({ target: server.baseUrl, judging, bodyCap: settings.bodyCap });
  proxyUrl = await proxy.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('docproc proxy in front of the reference server', () => {
  it("reports zero violations for the typed client's uploads of every fixture, lists with every filter, reads and retries", async () => {
    const outcome = await typedClientTraffic(proxyUrl, KEY);
    await proxy.settled();
    expect(lines).toEqual([]);
    const summary = await proxy.judging.summary();
    expect(summary.violations.total).toBe(0);
    expect(summary.exchanges.judged).toBeGreaterThanOrEqual(Object.values(outcome.calls).reduce((a, b) => a + b, 0));
    // Judged, not waved through: the schema, request and stateful checks ran on this traffic.
    const { report } = await proxy.judging.report();
    const passes = (id: string) => report.checks.find((c) => c.id === id)?.passes;
    for (const id of [
      'response.body-matches-schema',
      'response.no-forbidden-properties',
      'response.error-is-problem',
      'response.request-id-echoed',
      'upload.one-document-per-part',
      'get.matches-upload',
      'retry.restarts-processing',
    ])
      expect(passes(id), id).toBeGreaterThan(0);
    const served = await (await fetch(`${proxyUrl}/_proxy/report`)).json();
    expect(served).toMatchObject({ result: 'passed', violations: { total: 0 } });
  });

  it('stores a 20 MB PDF uploaded through it byte-identical to the one sent', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n%'), randomBytes(20 * 1024 * 1024)]);
    const before = new Set(await storedFiles(server.dataDir));
    const body = new FormData();
    body.append('files[]', new Blob([pdf], { type: 'application/pdf' }), 'big.pdf');
    const res = await fetch(`${proxyUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': KEY }, body });
    expect(res.status).toBe(202);
    const [doc] = (await res.json()).documents;
    expect(doc).toMatchObject({ filename: 'big.pdf', size_bytes: pdf.length });
    const added = (await storedFiles(server.dataDir)).filter((f) => !before.has(f));
    // Processing writes the document's text beside it meanwhile (a temp file renamed into place): one gone by now is not the upload.
    const hashes = await Promise.all(added.map((f) => readFile(f).then(sha256, () => undefined)));
    expect(hashes).toContain(sha256(pdf));
    await proxy.settled();
    expect((await proxy.judging.summary()).violations.total).toBe(0);
  }, 60_000);

  it('passes status, headers and body through unchanged but for hop-by-hop headers', async () => {
    const path = '/api/v1/documents/get_documents?limit=2';
    const headers = { 'x-api-key': KEY, 'x-request-id': 'same-both-ways' };
    const [direct, proxied] = await Promise.all([fetch(server.baseUrl + path, { headers }), fetch(proxyUrl + path, { headers })]);
    expect(proxied.status).toBe(direct.status);
    const strip = (h: Headers) => [...h.entries()].filter(([n]) => !['date', 'connection', 'keep-alive'].includes(n));
    expect(strip(proxied.headers)).toEqual(strip(direct.headers));
    expect(await proxied.text()).toBe(await direct.text());
  });

  it('tells a client that sends an invalid parameter or a file under the wrong field, and never writes the key', async () => {
    const since = await proxy.judging.total();
    await fetch(`${proxyUrl}/api/v1/documents/get_documents?limit=0`, { headers: { 'x-api-key': KEY } });
    const body = new FormData();
    body.append('file', new Blob([await readFile(new URL('../../../msw/fixtures/text.pdf', import.meta.url))]), 'text.pdf');
    await fetch(`${proxyUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': KEY }, body });
    await proxy.settled();
    const { violations } = await (await fetch(`${proxyUrl}/_proxy/violations`)).json();
    const fresh = violations.slice(0, (await proxy.judging.total()) - since);
    expect(fresh.map((v: { check: string; side: string }) => [v.check, v.side])).toEqual([
      ['upload.wrong-field', 'client'],
      ['list.rejects-invalid-params', 'client'],
    ]);
    expect(fresh[1].received).toContain('limit');
    expect(fresh[0].curl).toContain('$DOCPROC_API_KEY');
    expect(fresh[0].curl).toContain('\'file=@text.pdf;filename="text.pdf"');
    expect(JSON.stringify(violations)).not.toContain(KEY);
    expect(lines.join('\n')).not.toContain(KEY);
  });
});
