import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LargeUploadResult, sendLargeUpload } from '@docproc-kit/test-support/large-upload.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docproc proxy` in front of `docproc serve` as real processes, the server refusing an upload at its first
// bytes past the limit and closing at once (no lingering: what most backends do): a client sending a body
// far past the limit as fast as it can reads the server's 413 through the proxy, every time.
const KEY = 'early-answer-key';
const MAX_FILE_BYTES = 1024 * 1024;
const UPLOADS = 10;
let dir: string;
let serve: RunningCli;
let proxy: RunningCli;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docproc-proxy-early-'));
  serve = await startCli(
    ['serve', '--log-level', 'silent', '--data-dir', join(dir, 'data'), '--api-key', KEY].concat([
      '--max-file-bytes',
      String(MAX_FILE_BYTES),
      '--lingering-max-bytes',
      '0',
    ]),
    { readyPath: '/openapi.json' },
  );
  proxy = await startCli(['proxy', '--target', serve.baseUrl, '--report', join(dir, 'report.json')], { readyPath: '/_proxy/report' });
}, 60_000);
afterAll(async () => {
  await proxy?.stop('SIGKILL');
  await serve?.stop('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('docproc proxy in front of a server that refuses an upload early and closes', () => {
  it(`relays the server's 413 problem, its X-Request-Id and its bytes for ${UPLOADS} of ${UPLOADS} uploads of 32 MiB past a 1 MiB limit, stores nothing, and judges each one`, async () => {
    const answers: LargeUploadResult[] = [];
    for (let i = 0; i < UPLOADS; i++) answers.push(await sendLargeUpload(proxy.baseUrl, { fileBytes: 32 * 1024 * 1024, apiKey: KEY }));
    expect(answers.map((a) => ('error' in a ? a.error : a.status))).toEqual(Array(UPLOADS).fill(413));
    for (const answer of answers as Array<Exclude<LargeUploadResult, { error: string }>>) {
      expect(answer.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      // The server's own problem, not one the proxy made: it names the request the server gave its id.
      expect(JSON.parse(answer.body.toString())).toMatchObject({
        status: 413,
        code: 'file_too_large',
        request_id: answer.headers['x-request-id'],
      });
    }
    const list = await fetch(`${proxy.baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': KEY } });
    expect((await list.json()).pagination.total).toBe(0);

    await expect
      .poll(async () => (await (await fetch(`${proxy.baseUrl}/_proxy/report`)).json()).exchanges.judged, { timeout: 20_000 })
      .toBe(UPLOADS + 1);
    const summary = await (await fetch(`${proxy.baseUrl}/_proxy/report`)).json();
    expect(summary).toMatchObject({ result: 'passed', violations: { total: 0 }, exchanges: { notJudged: 0 } });
    expect(await proxy.stop('SIGTERM')).toBe(0);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    const passes = (id: string) => report.checks.find((c: { id: string }) => c.id === id)?.passes;
    // Each 413 was judged as the service's own answer, a problem document, not one the proxy made.
    expect(passes('response.answered-by-service')).toBeGreaterThanOrEqual(UPLOADS);
    expect(passes('response.error-is-problem')).toBeGreaterThanOrEqual(UPLOADS);
  }, 180_000);
});
