import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractMutants } from '@docproc-kit/conformance/proofs/mutants-contract.js';
import { typedClientTraffic } from '@docproc-kit/test-support/client-traffic.js';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// `docproc proxy` as a real process in front of a real server: what a user sees in the log, at the
// control routes, in the report files, and in the exit code.
const KEY = 'docproc-dev-key';
const KEYS = { primary: KEY, secondary: 'docproc-second-key' };
let server: RunningReferenceServer;
let dir: string;
const running: RunningCli[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  server = await startReferenceServer({ processingDelayMs: 20, apiKeys: [KEYS.primary, KEYS.secondary] });
  dir = await mkdtemp(join(tmpdir(), 'docproc-proxy-cli-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const proxyCli = async (target: string, args: string[]) => {
  const cli = await startCli(['proxy', '--target', target, ...args], { readyPath: '/_proxy/report' });
  running.push(cli);
  return cli;
};

describe('docproc proxy', () => {
  it('in front of a server that puts `content` into list items: logs the violation with its check id, serves it, writes the reports, and exits 1 with --fail-on-violation', async () => {
    const mutant = contractMutants.find((m) => m.name === 'list-carries-content')!;
    const broken = await startMutationProxy(server.baseUrl, mutant.mutation(KEYS));
    closers.push(broken.close);
    const report = join(dir, 'carries-content.json');
    const cli = await proxyCli(broken.baseUrl, ['--fail-on-violation', '--report', report]);
    await typedClientTraffic(cli.baseUrl, KEY);
    const { violations } = await (await fetch(`${cli.baseUrl}/_proxy/violations`)).json();
    expect(new Set(violations.map((v: { check: string }) => v.check))).toEqual(new Set(['response.no-forbidden-properties']));
    expect(violations[0]).toMatchObject({
      side: 'service',
      operation: expect.stringContaining('listDocuments'),
      received: expect.stringContaining('content'),
    });
    expect(cli.output()).toMatch(
      /violation \[response\.no-forbidden-properties\] \(service\) GET .*received forbidden .*content.*reproduce: curl /,
    );
    expect(await cli.stop('SIGTERM')).toBe(1);

    const json = JSON.parse(await readFile(report, 'utf8'));
    expect(json).toMatchObject({ tool: 'docproc proxy', result: 'failed' });
    expect(json.checks.find((c: { id: string }) => c.id === 'response.no-forbidden-properties')).toMatchObject({ outcome: 'failed' });
    expect(json.checks.find((c: { id: string }) => c.id === 'response.body-matches-schema')).toMatchObject({ outcome: 'passed' });
    expect(await readFile(join(dir, 'carries-content.xml'), 'utf8')).toContain('response.no-forbidden-properties');
    const har = JSON.parse(await readFile(join(dir, 'carries-content.har'), 'utf8'));
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(har.log.entries[0]).toMatchObject({ request: { method: 'GET' }, _violations: ['response.no-forbidden-properties'] });
    for (const file of ['carries-content.json', 'carries-content.xml', 'carries-content.har'])
      expect(await readFile(join(dir, file), 'utf8')).not.toContain(KEY);
    expect(cli.output()).not.toContain(KEY);
  }, 90_000);

  it('in front of the reference server: no violation, and --fail-on-violation exits 0', async () => {
    const cli = await proxyCli(server.baseUrl, ['--fail-on-violation']);
    await typedClientTraffic(cli.baseUrl, KEY);
    // The violations themselves first, so a failure names the check.
    expect((await (await fetch(`${cli.baseUrl}/_proxy/violations`)).json()).violations).toEqual([]);
    const summary = await (await fetch(`${cli.baseUrl}/_proxy/report`)).json();
    expect(summary).toMatchObject({ result: 'passed', violations: { total: 0 } });
    expect(summary.exchanges.judged).toBeGreaterThan(30);
    expect(await cli.stop('SIGINT')).toBe(0);
    expect(cli.output()).not.toContain('violation [');
  }, 90_000);

  it('answers its report as a page to a browser and as JSON to curl, and writes the page at exit with --html', async () => {
    const mutant = contractMutants.find((m) => m.name === 'list-carries-content')!;
    const broken = await startMutationProxy(server.baseUrl, mutant.mutation(KEYS));
    closers.push(broken.close);
    const page = join(dir, 'proxy-page.html');
    const cli = await proxyCli(broken.baseUrl, ['--html', page]);
    await typedClientTraffic(cli.baseUrl, KEY);
    // Judged off the request's path: the page is asked for once the violations are in.
    await expect.poll(async () => (await (await fetch(`${cli.baseUrl}/_proxy/violations`)).json()).total).toBeGreaterThan(0);
    const browser = await fetch(`${cli.baseUrl}/_proxy/report`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await browser.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('docproc proxy report');
    expect(html).toContain('data-check="response.no-forbidden-properties"');
    const { spawnSync } = await import('node:child_process');
    const curl = spawnSync('curl', ['-sS', '-i', `${cli.baseUrl}/_proxy/report`], { encoding: 'utf8', timeout: 10_000 });
    expect(curl.stdout).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(curl.stdout.split('\r\n\r\n')[1]!)).toMatchObject({ result: 'failed', violations: { client: 0 } });
    expect(await cli.stop('SIGTERM')).toBe(0);
    const written = await readFile(page, 'utf8');
    expect(written).toContain('data-check="response.no-forbidden-properties"');
    expect(written).toContain('Exchanges');
    expect(written + html).not.toContain(KEY);
  }, 90_000);

  it('refuses a target that is not an http(s) base URL, as a usage error', async () => {
    const { spawnSync } = await import('node:child_process');
    const { docprocArgs } = await import('@docproc-kit/test-support/processes.js');
    const result = spawnSync(process.execPath, docprocArgs(['proxy', '--target', 'ftp://example']), { encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('expected an http:// or https:// URL');
  });
});
