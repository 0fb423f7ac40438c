import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { runSuite } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Gateways and overloaded deployments answer 429/503 with Retry-After, which the contract documents as
// "wait `Retry-After` seconds, then retry. Nothing was changed.": a target that answers nothing else ends the
// run as unavailable (exit 2, never 1). That a correct service answering some of its requests so passes the
// full profile is a proof of the slow tier (proofs/transient-answers.test.ts).
const KEY = 'transient-key';
let server: RunningReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: [KEY] });
});
afterAll(() => server?.close());

/** The `503 service_unavailable` a conforming service answers to a request that sent `requestId`: `Retry-After: 1`. */
function unavailable(requestId: string | undefined): { headers: Record<string, string>; body: Buffer } {
  const id = requestId ?? 'made-by-the-service';
  const problem = {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'Overloaded; retry after 1 s.',
    code: 'service_unavailable',
  };
  return {
    headers: { 'content-type': 'application/problem+json', 'retry-after': '1', 'x-request-id': id },
    body: Buffer.from(JSON.stringify({ ...problem, request_id: id })),
  };
}

/** A server that answers every request `503 service_unavailable` with `Retry-After: 1`. */
async function alwaysUnavailable(): Promise<{ baseUrl: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const target: Server = createServer((req, res) => {
    requests++;
    req.resume();
    const { headers, body } = unavailable(req.headers['x-request-id'] as string | undefined);
    res.writeHead(503, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => target.close(() => resolve())),
  };
}

describe('a target that answers only 429/503 with Retry-After', () => {
  it('a target answering 503 to everything: exit 2 "target unavailable" within --max-wait-s, before any check', async () => {
    const target = await alwaysUnavailable();
    try {
      const started = Date.now();
      const run = await runSuite(['--base-url', target.baseUrl, '--api-key', 'k', '--max-wait-s', '3'], { timeoutMs: 60_000 });
      expect(run.code, run.output).toBe(2);
      expect(run.output).toMatch(/docproc conformance: target unavailable: .* answered only 503 .* for 3 s; --max-wait-s is 3/);
      expect(run.output).not.toMatch(/cannot reach/);
      // Three waits of Retry-After: 1, then the budget is spent; the rest is the CLI starting.
      expect(target.requests()).toBe(4);
      expect(Date.now() - started).toBeLessThan(3_000 + 20_000);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('a target that becomes unavailable mid-run: exit 2 "target unavailable" once the wait budget is spent, with a report saying so', async () => {
    let requests = 0;
    const proxy = await startMutationProxy(server.baseUrl, {
      respond: async (request, upstream) => {
        // The preflight is answered; from then on only 503s.
        if (++requests <= 1) return upstream(request);
        return { status: 503, ...unavailable(request.headers['x-request-id']) };
      },
    });
    try {
      const started = Date.now();
      const pageDir = mkdtempSync(join(tmpdir(), 'conformance-unavailable-page-'));
      const run = await runSuite(['--base-url', proxy.baseUrl, '--api-key', KEY, '--profile', 'contract', '--max-wait-s', '2'], {
        timeoutMs: 120_000,
        env: { DOCPROC_HTML: join(pageDir, 'conformance.html') },
      });
      // The page is written as the JSON is, saying why the run stopped and what it waited.
      const page = readFileSync(join(pageDir, 'conformance.html'), 'utf8');
      rmSync(pageDir, { recursive: true, force: true });
      expect(page).toContain('UNAVAILABLE');
      expect(page).toMatch(/<strong>Stopped early<\/strong> \(unavailable\)/);
      expect(page).toMatch(/\d+ requests? resent after a transient answer \(503: \d+\)/);
      expect(run.code, run.output).toBe(2);
      expect(run.output).toMatch(
        /docproc conformance: target unavailable: (GET|POST) http\S+ got only transient answers \(last 503, Retry-After 1\) for 2 s/,
      );
      expect(run.report?.stopped?.reason, run.output).toBe('unavailable');
      // No check failed for it: what the unavailable target kept from running is not exercised.
      expect(run.report!.checks.filter((c) => c.outcome === 'failed').map((c) => c.id)).toEqual([]);
      expect(run.report!.unattributed, run.output).toEqual([]);
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
