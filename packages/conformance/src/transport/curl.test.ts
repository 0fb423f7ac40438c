import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { curlTransportArgs, DIRECT } from '../definitions/transport-settings.js';
import { curlCommand, shellQuote } from './curl.js';

const dir = mkdtempSync(join(tmpdir(), 'curl-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `command` with sh in `cwd` against a real server on 127.0.0.1; resolves to what the server received. */
async function replay(command: (baseUrl: string) => string, cwd: string, env: NodeJS.ProcessEnv) {
  const received: Array<{ headers: IncomingHttpHeaders; body: Buffer }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await promisify(execFile)('sh', ['-c', command(baseUrl)], { cwd, env: { PATH: process.env.PATH, ...env }, timeout: 20_000 });
  } finally {
    server.close();
  }
  return received;
}

describe('curl reproducers', () => {
  it('never contains the key, only the environment variable that holds it', () => {
    const cmd = curlCommand(
      { method: 'GET', url: 'http://h/api/v1/documents/get_documents?page=1', key: 'primary', headers: { 'x-request-id': 'r-1' } },
      dir,
      1,
    );
    expect(cmd).toBe(
      `curl -sS -i -g -X GET 'http://h/api/v1/documents/get_documents?page=1' -H "x-api-key: $DOCPROC_API_KEY" -H 'x-request-id: r-1'`,
    );
  });

  it('names the second key by its own variable and leaves a keyless request without the header', () => {
    expect(curlCommand({ method: 'GET', url: 'http://h/x', key: 'secondary', headers: {} }, dir, 2)).toContain('$DOCPROC_SECOND_API_KEY');
    expect(curlCommand({ method: 'GET', url: 'http://h/x', key: 'none', headers: {} }, dir, 3)).not.toContain('x-api-key');
  });

  it('writes file parts to disk and sends them with -F, keeping a non-ASCII filename', () => {
    const data = new TextEncoder().encode('%PDF-1.7');
    const cmd = curlCommand(
      {
        method: 'POST',
        url: 'http://h/u',
        key: 'primary',
        headers: {},
        body: { kind: 'files', parts: [{ field: 'files[]', filename: 'Grüße "x".pdf', contentType: 'application/pdf', data }] },
      },
      dir,
      4,
    );
    const path = /files\[\]=@([^;]+);/.exec(cmd)![1]!;
    expect(readFileSync(path, 'utf8')).toBe('%PDF-1.7');
    expect(cmd).toContain(`filename="Grüße \\"x\\".pdf";type=application/pdf'`);
  });

  it('sends raw bodies byte for byte, and no content type when none was sent', () => {
    const cmd = curlCommand(
      { method: 'POST', url: 'http://h/u', key: 'primary', headers: {}, body: { kind: 'raw', data: new Uint8Array([1, 2]) } },
      dir,
      5,
    );
    expect(cmd).toContain('-H content-type: --data-binary @');
    expect([...readFileSync(/@(\S+)$/.exec(cmd)![1]!)]).toEqual([1, 2]);
  });

  it('names body files relative to the report folder: the folder unpacked elsewhere (a CI artifact) replays as is', async () => {
    const reports = join(dir, 'ci-reports');
    const request = (url: string) => ({
      method: 'POST',
      url: `${url}/u`,
      key: 'primary' as const,
      headers: {},
      body: { kind: 'raw' as const, data: new Uint8Array([0, 1, 2, 255]) },
    });
    const files = (url: string) => ({
      ...request(url),
      body: {
        kind: 'files' as const,
        parts: [{ field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data: new TextEncoder().encode('%PDF-1.7 a') }],
      },
    });
    const options = { shownAs: 'docproc-conformance-run1/bodies' };
    const bodies = join(reports, 'docproc-conformance-run1', 'bodies');
    const commands = { raw: curlCommand(request('$BASE'), bodies, 6, options), files: curlCommand(files('$BASE'), bodies, 7, options) };
    expect(commands.raw).toContain(`--data-binary @docproc-conformance-run1/bodies/6-body.bin`);
    expect(commands.files).toContain(`'files[]=@docproc-conformance-run1/bodies/7-0-a.pdf;`);
    expect(`${commands.raw} ${commands.files}`).not.toContain(dir);
    const unpacked = join(dir, 'downloaded-artifact');
    cpSync(reports, unpacked, { recursive: true });
    rmSync(reports, { recursive: true });
    const got = await replay(
      (base) => `${commands.raw.replace(`'$BASE/u'`, `${base}/u`)} && ${commands.files.replace(`'$BASE/u'`, `${base}/u`)}`,
      unpacked,
      {
        DOCPROC_API_KEY: 'k',
      },
    );
    expect([...got[0]!.body]).toEqual([0, 1, 2, 255]);
    expect(got[1]!.body.toString('latin1')).toContain('%PDF-1.7 a');
  });

  it("sends a gateway's headers from shell variables, never their values, with the run's certificate options", async () => {
    const transport = {
      ...DIRECT,
      insecure: true,
      caFiles: ['/etc/ci/ca.pem'],
      headers: [['X-Gateway-Token', 's3cret']] as Array<[string, string]>,
    };
    const command = (url: string) =>
      curlCommand({ method: 'GET', url, key: 'primary', headers: {} }, dir, 8, { transportArgs: curlTransportArgs(transport) });
    expect(command('http://h/x')).toBe(
      `curl -sS -i -g --cacert '/etc/ci/ca.pem' -k -H "X-Gateway-Token: $DOCPROC_HEADER_X_GATEWAY_TOKEN" -X GET http://h/x -H "x-api-key: $DOCPROC_API_KEY"`,
    );
    // Without the certificate options (a plain http server), the header arrives from the variable.
    const plain = { ...transport, insecure: false, caFiles: [] };
    const got = await replay(
      (base) =>
        curlCommand({ method: 'GET', url: `${base}/x`, key: 'primary', headers: {} }, dir, 9, { transportArgs: curlTransportArgs(plain) }),
      dir,
      { DOCPROC_API_KEY: 'k', DOCPROC_HEADER_X_GATEWAY_TOKEN: 'from-the-variable' },
    );
    expect(got[0]!.headers['x-gateway-token']).toBe('from-the-variable');
  });

  it("goes through the run's proxy in absolute form, named by the variable the run read (curl ignores an upper-case HTTP_PROXY)", async () => {
    const seen: Array<{ url?: string; authorization?: string }> = [];
    const proxy = createServer((req, res) => {
      seen.push({ url: req.url, authorization: req.headers['proxy-authorization'] });
      res.end('relayed');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const proxyUrl = `http://ci:s3cret@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const transport = { ...DIRECT, proxy: { http: proxyUrl, noProxy: 'straight.example' } };
      const command = curlCommand({ method: 'GET', url: 'http://staging.example:8080/x', key: 'primary', headers: {} }, dir, 10, {
        transportArgs: curlTransportArgs(transport, 'http://staging.example:8080'),
      });
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a parameter expansion of the shell, not of JavaScript
      expect(command).toContain(' -x "${http_proxy:-$HTTP_PROXY}" ');
      expect(command).not.toContain('s3cret');
      await promisify(execFile)('sh', ['-c', command], {
        env: { PATH: process.env.PATH, HTTP_PROXY: proxyUrl, DOCPROC_API_KEY: 'k' },
        timeout: 20_000,
      });
      expect(seen).toEqual([
        { url: 'http://staging.example:8080/x', authorization: `Basic ${Buffer.from('ci:s3cret').toString('base64')}` },
      ]);
      expect(curlTransportArgs(transport, 'http://straight.example')).toEqual([]);
    } finally {
      proxy.close();
    }
  });

  it.each([
    ['plain', 'plain'],
    ["it's", `'it'\\''s'`],
    ['$HOME', `'$HOME'`],
  ])('quotes %s for the shell as %s', (input, quoted) => {
    expect(shellQuote(input)).toBe(quoted);
  });
});
