import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { makePrivateCa, type PrivateCa } from '@docproc-kit/test-support/certificates.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJudging } from './judging.js';
import { createProxyServer, type ProxyServer } from './proxy-server.js';

// The forwarding itself, against a target that tells what reached it: the path under the target's base
// path, the headers (Host the target's, hop-by-hop ones gone, the rest as sent), a streamed body's bytes,
// and TLS to the target with a private CA.
interface Seen {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  sha256: string;
  size: number;
}

let ca: PrivateCa;
const servers: Server[] = [];
const proxies: ProxyServer[] = [];
beforeAll(() => {
  ca = makePrivateCa();
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});
afterAll(() => ca?.remove());

const tellWhatArrived = (req: IncomingMessage, res: ServerResponse) => {
  const hash = createHash('sha256');
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  req.on('end', () => {
    const seen: Seen = { url: req.url ?? '', headers: req.headers, sha256: hash.digest('hex'), size };
    res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive', 'x-custom': 'kept' });
    res.end(JSON.stringify(seen));
  });
};

async function listening(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function proxyTo(target: string, options: { ca?: string; verifyTls?: boolean } = {}): Promise<string> {
  const settings = { target, spec: bundledSpecPath, strict: false, bodyCap: 1024 * 1024, keep: 100 };
  const proxy = createProxyServer({
    target,
    judging: createLocalJudging(settings, await loadBundledContract()),
    bodyCap: settings.bodyCap,
    ...options,
  });
  proxies.push(proxy);
  return proxy.listen(0, '127.0.0.1');
}

/** Sends a POST with a body streamed in 64 KiB chunks (chunked: no Content-Length), returns what the target saw. */
function postStreamed(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingMessage['headers']; seen: Seen }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, seen: JSON.parse(Buffer.concat(chunks).toString()) }));
    });
    req.on('error', reject);
    Readable.from(
      (function* () {
        for (let at = 0; at < body.length; at += 65_536) yield body.subarray(at, at + 65_536);
      })(),
    ).pipe(req);
  });
}

describe('the forwarder', () => {
  it("sends the path under the target's base path with the target's Host, drops only hop-by-hop headers, and streams a 25 MiB body unchanged", async () => {
    const port = await listening(createHttpServer(tellWhatArrived));
    const proxyUrl = await proxyTo(`http://127.0.0.1:${port}/svc/`);
    const body = randomBytes(25 * 1024 * 1024);
    const { status, headers, seen } = await postStreamed(`${proxyUrl}/api/v1/documents/upload_files?x=1`, body, {
      connection: 'keep-alive, x-hop',
      'x-hop': 'only for this connection',
      'x-keep': 'end to end',
      'x-api-key': 'k',
    });
    expect(status).toBe(200);
    expect(seen.url).toBe('/svc/api/v1/documents/upload_files?x=1');
    expect(seen.headers.host).toBe(`127.0.0.1:${port}`);
    expect(seen.headers['x-keep']).toBe('end to end');
    expect(seen.headers['x-api-key']).toBe('k');
    expect(seen.headers['x-hop']).toBeUndefined();
    expect(seen.size).toBe(body.length);
    expect(seen.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(headers['x-custom']).toBe('kept');
  }, 30_000);

  it('reaches an HTTPS target whose certificate a private CA signed when given the CA, and answers 502 itself when the certificate is not trusted', async () => {
    const port = await listening(createHttpsServer({ cert: readFileSync(ca.certFile), key: readFileSync(ca.keyFile) }, tellWhatArrived));
    const target = `https://localhost:${port}`;
    const trusted = await proxyTo(target, { ca: readFileSync(ca.caFile, 'utf8') });
    const ok = await fetch(`${trusted}/api/v1/documents/get_documents`);
    expect(ok.status).toBe(200);
    expect((await ok.json()).headers.host).toBe(`localhost:${port}`);
    const untrusted = await proxyTo(target);
    const refused = await fetch(`${untrusted}/api/v1/documents/get_documents`);
    expect(refused.status).toBe(502);
    expect(await refused.text()).toMatch(/docproc proxy: the target https:\/\/localhost:\d+ could not be reached \(.*certificate/);
    const insecure = await proxyTo(target, { verifyTls: false });
    expect((await fetch(`${insecure}/api/v1/documents/get_documents`)).status).toBe(200);
  }, 30_000);
});
