import { readFileSync } from 'node:fs';
import { DIRECT, type TransportSettings } from '@docproc-kit/conformance/definitions/transport-settings.js';
import { openSocket } from '@docproc-kit/conformance/transport/race/connect.js';
import { makePrivateCa, type PrivateCa } from '@docproc-kit/test-support/certificates.js';
import { type Balancer, startNginx } from '@docproc-kit/test-support/nginx.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { checksNotPassed, fullProfileArgs, runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import { type ForwardProxy, startTinyproxy } from '@docproc-kit/test-support/tinyproxy.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The reference server as teams deploy a service: behind nginx terminating TLS with a certificate of a
// private CA (made here), reached through an egress proxy (tinyproxy), behind a gateway that wants its own
// header. nginx passes TCP through after TLS, so every byte of HTTP is the server's own.
const KEYS = ['deployed-key', 'deployed-second-key'];
const MAX_FILE_BYTES = 65_536;
const GATEWAY: [string, string] = ['X-Gateway-Token', 'gateway-s3cret'];
let server: RunningReferenceServer;
let ca: PrivateCa;
let tls: Balancer;
let gateway: Balancer;
let proxy: ForwardProxy;

beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: KEYS, maxFiles: 20, maxFileBytes: MAX_FILE_BYTES, processingDelayMs: 200 });
  ca = makePrivateCa();
  const upstream = [new URL(server.baseUrl).host];
  tls = await startNginx(upstream, { layer: 'tcp', tls: ca });
  gateway = await startNginx(upstream, { requireHeader: GATEWAY });
  proxy = await startTinyproxy();
}, 60_000);

afterAll(async () => {
  await tls?.stop();
  await gateway?.stop();
  await proxy?.stop();
  await server?.close();
  ca?.remove();
}, 30_000);

const full = (baseUrl: string) => fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 });
// The areas with races (raw sockets, not fetch) and uploads: a shorter run that still uses every way out.
const racing = (baseUrl: string) => [...full(baseUrl), '--only', 'upload,retry'];
// Exit 0 and every check passed; a run of some areas (--only) leaves checks of others, and a few of its
// own that another area's scenarios evaluate, not exercised.
// What did not pass leads the message: CI keeps only a failure's first lines.
const passed = (run: SuiteRun) => {
  const notPassed = run.report ? checksNotPassed(run) : [];
  const why = `${notPassed.join('\n')}\n${run.output}`;
  expect(run.code, why).toBe(0);
  expect(run.report!.only ? notPassed.filter((c) => !c.includes(': not-exercised')) : notPassed, why).toEqual([]);
};
const logged = (pattern: RegExp) =>
  proxy
    .log()
    .split('\n')
    .filter((line) => pattern.test(line)).length;
const escaped = (host: string) => host.replace(/[.[\]]/g, '\\$&');
const tunnelsTo = (host: string) => logged(new RegExp(`: CONNECT ${escaped(host)} `));
// Plain http through a proxy in absolute form (RFC 9112 §3.2.2): `GET http://host:port/path`, as curl sends it.
const absoluteTo = (host: string) => logged(new RegExp(`: [A-Z]+ http://${escaped(host)}/`));

describe('a target served over HTTPS with a certificate of a private CA', () => {
  it('passes the full profile with --ca-file', async () => {
    const run = await runSuite([...full(tls.baseUrl), '--ca-file', ca.caFile], { timeoutMs: 280_000 });
    passed(run);
    expect(run.report!.target).toBe(tls.baseUrl);
  }, 300_000);

  it('is refused without it: exit 2, naming the certificate problem and the ways out', async () => {
    const run = await runSuite(full(tls.baseUrl), { timeoutMs: 60_000 });
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/cannot verify the TLS certificate of https:\/\/127\.0\.0\.1:\d+: UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    expect(run.output).toContain('--ca-file');
  }, 90_000);

  it('passes with NODE_EXTRA_CA_CERTS naming the CA, races (raw sockets) included', async () => {
    passed(await runSuite(racing(tls.baseUrl), { env: { NODE_EXTRA_CA_CERTS: ca.caFile }, timeoutMs: 200_000 }));
  }, 220_000);

  it('passes with --insecure, warning that nothing verified who answered', async () => {
    const run = await runSuite([...racing(tls.baseUrl), '--insecure'], { timeoutMs: 200_000 });
    passed(run);
    expect(run.output).toMatch(/^warning: --insecure: the target's TLS certificate is not verified/m);
    expect(run.output).toContain('TLS      NOT VERIFIED (--insecure)');
    expect(run.report!.insecure).toBe(true);
  }, 220_000);

  it('given its http:// address that redirects to https://, follows the redirect once with a warning and judges the https one', async () => {
    const run = await runSuite([...full(tls.redirectingBaseUrl!), '--ca-file', ca.caFile, '--only', 'list'], { timeoutMs: 200_000 });
    passed(run);
    expect(run.output).toContain(
      `warning: ${tls.redirectingBaseUrl} redirects to https (301 to ${tls.baseUrl}): the run uses ${tls.baseUrl}`,
    );
    expect(run.report!.target).toBe(tls.baseUrl);
  }, 220_000);
});

describe('a target reached through a real HTTP proxy (tinyproxy)', () => {
  const host = () => new URL(server.baseUrl).host;

  it('passes the full profile through HTTP_PROXY, every plain http request in absolute form, none tunnelled', async () => {
    const before = { absolute: absoluteTo(host()), tunnels: tunnelsTo(host()) };
    const run = await runSuite(full(server.baseUrl), { env: { HTTP_PROXY: proxy.url }, timeoutMs: 280_000 });
    passed(run);
    // Every request of fetch and every raw race request: hundreds, all through the proxy.
    expect(absoluteTo(host()) - before.absolute).toBeGreaterThan(100);
    expect(tunnelsTo(host())).toBe(before.tunnels);
  }, 300_000);

  it('reaches the HTTPS target through HTTPS_PROXY, TLS inside the tunnel, races included', async () => {
    const before = tunnelsTo(new URL(tls.baseUrl).host);
    passed(await runSuite([...racing(tls.baseUrl), '--ca-file', ca.caFile], { env: { HTTPS_PROXY: proxy.url }, timeoutMs: 200_000 }));
    expect(tunnelsTo(new URL(tls.baseUrl).host) - before).toBeGreaterThan(5);
  }, 220_000);

  it('goes straight to a host NO_PROXY names: the proxy sees none of it', async () => {
    const before = tunnelsTo(host()) + absoluteTo(host());
    const run = await runSuite([...full(server.baseUrl), '--only', 'list'], {
      env: { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' },
      timeoutMs: 200_000,
    });
    passed(run);
    expect(tunnelsTo(host()) + absoluteTo(host())).toBe(before);
  }, 220_000);

  it('says which proxy it could not get through, exit 2', async () => {
    const run = await runSuite(full(server.baseUrl), { env: { HTTP_PROXY: 'http://127.0.0.1:9' }, timeoutMs: 60_000 });
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ through the proxy http:\/\/127\.0\.0\.1:9: ECONNREFUSED/);
  }, 90_000);

  it.each([
    [
      'http, through HTTP_PROXY: a connection to the proxy, the request in absolute form',
      () => `${server.baseUrl}/openapi.json`,
      { http: '' },
    ],
    ['https, through HTTPS_PROXY: a CONNECT tunnel, TLS inside', () => `${tls.baseUrl}/openapi.json`, { https: '' }],
  ])(
    'opens a raw socket to %s, as the proxy logs',
    async (_, url, which) => {
      const target = new URL(url());
      const settings: TransportSettings = {
        ...DIRECT,
        ca: readCa(),
        proxy: Object.fromEntries(Object.keys(which).map((k) => [k, proxy.url])),
      };
      const https = target.protocol === 'https:';
      const count = () => (https ? tunnelsTo(target.host) : absoluteTo(target.host));
      const before = count();
      const socket = await openSocket(target, settings, 10_000);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.once('error', reject);
        socket.once('close', () => resolve(text));
        socket.write(`GET ${https ? '' : target.origin}${target.pathname} HTTP/1.1\r\nhost: ${target.host}\r\nconnection: close\r\n\r\n`);
      });
      expect(answer).toMatch(/^HTTP\/1\.[01] 200 /);
      expect(count()).toBe(before + 1);
    },
    30_000,
  );
});

describe('a target behind a gateway that wants a header of its own', () => {
  it('passes with --header, and neither the output nor the report ever shows its value', async () => {
    const run = await runSuite([...racing(gateway.baseUrl), '--header', `${GATEWAY[0]}: ${GATEWAY[1]}`], { timeoutMs: 200_000 });
    passed(run);
    expect(`${run.output}${JSON.stringify(run.report)}`).not.toContain(GATEWAY[1]);
  }, 220_000);

  it("takes the headers from DOCPROC_HEADERS too; without them every request is the gateway's 403", async () => {
    passed(
      await runSuite([...full(gateway.baseUrl), '--only', 'list'], {
        env: { DOCPROC_HEADERS: `${GATEWAY[0]}: ${GATEWAY[1]}\n` },
        timeoutMs: 200_000,
      }),
    );
    const refused = await runSuite([...full(gateway.baseUrl), '--only', 'list'], { timeoutMs: 200_000 });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain('403');
  }, 300_000);
});

function readCa(): string {
  return readFileSync(ca.caFile, 'utf8');
}
