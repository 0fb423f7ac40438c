import { makePrivateCa, type PrivateCa } from '@docproc-kit/test-support/certificates.js';
import { type Balancer, startNginx } from '@docproc-kit/test-support/nginx.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { checksNotPassed, fullProfileArgs, runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import { type SquidProxy, startSquid } from '@docproc-kit/test-support/squid.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The reference server reached as from a CI runner inside a company: through its forward proxy, a real
// Squid with Debian's default squid.conf (CONNECT only to port 443, Safe_ports, localhost allowed), which
// relays plain http sent in absolute form and refuses to tunnel it. Then the same proxy refusing everyone,
// and wanting a password (squid's basic_ncsa_auth).
const KEYS = ['proxied-key', 'proxied-second-key'];
const MAX_FILE_BYTES = 65_536;
const CREDENTIALS = { user: 'ci-runner', password: 'pr0xy s3cret' };
let server: RunningReferenceServer;
let squid: SquidProxy;

beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: KEYS, maxFiles: 20, maxFileBytes: MAX_FILE_BYTES, processingDelayMs: 200 });
  squid = await startSquid();
}, 60_000);

afterAll(async () => {
  await squid?.stop();
  await server?.close();
}, 30_000);

const full = (baseUrl: string) => fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 });
// The areas with races (raw sockets, not fetch) and uploads: a shorter run that still uses every way out.
const racing = (baseUrl: string) => [...full(baseUrl), '--only', 'upload,retry'];
const passed = (run: SuiteRun) => {
  expect(run.code, run.output).toBe(0);
  const notPassed = checksNotPassed(run);
  expect(run.report!.only ? notPassed.filter((c) => !c.includes(': not-exercised')) : notPassed, run.output).toEqual([]);
};
const escaped = (text: string) => text.replace(/[.[\]]/g, '\\$&');
/** Lines of a Squid access log for requests to `host` in absolute form (`GET http://host/...`), or tunnels to it. */
const logged = (log: string, host: string) => ({
  absolute: log.split('\n').filter((line) => new RegExp(` [A-Z]+ http://${escaped(host)}/`).test(line)).length,
  tunnels: log.split('\n').filter((line) => line.includes(` CONNECT ${host} `)).length,
});
const timed = async (run: () => Promise<SuiteRun>) => {
  const started = Date.now();
  const result = await run();
  return { run: result, seconds: (Date.now() - started) / 1000 };
};

describe("through Squid with Debian's default configuration", () => {
  it('passes the full profile, every request relayed in absolute form, none tunnelled', async () => {
    const host = new URL(server.baseUrl).host;
    const before = logged(squid.accessLog(), host);
    const { run, seconds } = await timed(() => runSuite(full(server.baseUrl), { env: { HTTP_PROXY: squid.url }, timeoutMs: 280_000 }));
    passed(run);
    const after = logged(squid.accessLog(), host);
    // Every fetch and every raw race request: hundreds, all relayed by the proxy.
    expect(after.absolute - before.absolute, squid.accessLog().slice(-2000)).toBeGreaterThan(100);
    expect(after.tunnels).toBe(before.tunnels);
    console.log(`full profile through squid: ${seconds.toFixed(1)} s, ${after.absolute - before.absolute} requests in absolute form`);
  }, 300_000);

  it('refuses to tunnel to an https target off port 443: exit 2 at once, naming the proxy and the refused CONNECT', async () => {
    const ca: PrivateCa = makePrivateCa();
    let tls: Balancer | undefined;
    try {
      tls = await startNginx([new URL(server.baseUrl).host], { layer: 'tcp', tls: ca });
      const target = new URL(tls.baseUrl).host;
      const { run, seconds } = await timed(() =>
        runSuite([...full(tls!.baseUrl), '--ca-file', ca.caFile], { env: { HTTPS_PROXY: squid.url }, timeoutMs: 60_000 }),
      );
      expect(run.code, run.output).toBe(2);
      expect(run.output).toContain(
        `cannot reach ${tls.baseUrl} through the proxy ${squid.url}: it refused CONNECT ${target}: 403 (X-Squid-Error: ERR_ACCESS_DENIED 0`,
      );
      expect(seconds).toBeLessThan(30);
      console.log(`https target off port 443 through default squid: exit 2 in ${seconds.toFixed(1)} s`);
    } finally {
      await tls?.stop();
      ca.remove();
    }
  }, 90_000);
});

describe('through a Squid that refuses', () => {
  it.each([
    [
      'everyone (http_access deny all)',
      { denyAll: true },
      /it answered GET http:\/\/\S+\/api\/v1\/\S+ itself, 403 \(X-Squid-Error: ERR_ACCESS_DENIED 0/,
    ],
    [
      'a client without credentials (basic_ncsa_auth)',
      { basicAuth: CREDENTIALS },
      /it answered GET http:\/\/\S+\/api\/v1\/\S+ itself, 407 \(X-Squid-Error: ERR_CACHE_ACCESS_DENIED 0, Proxy-Authenticate: Basic realm="docproc-test".*\); the proxy wants credentials/,
    ],
  ])(
    '%s: exit 2 within 30 s, one line naming the proxy and what it said, never the service failing',
    async (who, options, said) => {
      const refusing = await startSquid(options);
      try {
        const { run, seconds } = await timed(() =>
          runSuite(full(server.baseUrl), { env: { HTTP_PROXY: refusing.url }, timeoutMs: 60_000 }),
        );
        expect(run.code, run.output).toBe(2);
        const line = run.output.split('\n').find((l) => l.includes(`through the proxy ${refusing.url}`));
        expect(line, run.output).toMatch(
          new RegExp(`^docproc conformance: cannot reach ${escaped(server.baseUrl)} through the proxy ${escaped(refusing.url)}: `),
        );
        expect(line).toMatch(said);
        expect(seconds).toBeLessThan(30);
        console.log(`squid refusing ${who}: exit 2 in ${seconds.toFixed(1)} s`);
      } finally {
        await refusing.stop();
      }
    },
    90_000,
  );

  it('passes with the credentials in the proxy URL, which no output or report ever shows', async () => {
    const authenticating = await startSquid({ basicAuth: CREDENTIALS });
    try {
      const proxyUrl = authenticating.url.replace('//', `//${CREDENTIALS.user}:${encodeURIComponent(CREDENTIALS.password)}@`);
      const { run, seconds } = await timed(() =>
        runSuite(racing(server.baseUrl), { env: { HTTP_PROXY: proxyUrl }, junit: true, timeoutMs: 200_000 }),
      );
      passed(run);
      const host = new URL(server.baseUrl).host;
      // Each logged with the user it authenticated as: fetch's requests and the raw race requests alike.
      const relayed = authenticating
        .accessLog()
        .split('\n')
        .filter((l) => l.includes(` http://${host}/`));
      expect(relayed.length).toBeGreaterThan(20);
      expect(relayed.every((l) => l.includes(` ${CREDENTIALS.user} `))).toBe(true);
      for (const secret of [CREDENTIALS.password, encodeURIComponent(CREDENTIALS.password)])
        expect(`${run.output}${JSON.stringify(run.report)}${run.junit}`).not.toContain(secret);
      console.log(`upload and retry areas through squid with proxy auth: ${seconds.toFixed(1)} s`);
    } finally {
      await authenticating.stop();
    }
  }, 220_000);
});
