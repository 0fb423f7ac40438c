import { Writable } from 'node:stream';
import { promtoolCheck } from '@docproc-kit/test-support/promtool.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';

// The operator's endpoints of a real server on a port (lowdb in a temp dir): what a balancer's probe and
// a Prometheus scrape see.
const logged: string[] = [];
const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _, done) => done(void logged.push(String(chunk))) }));
const metrics = createMetrics();
let server: RunningReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ logger, metrics });
  metrics.watch(server.service.metricSources);
});
afterAll(() => server?.close());

const key = () => ({ 'x-api-key': server.apiKeys[0]! });

describe('the operator endpoints', () => {
  it.each([
    ['/healthz', { status: 'ok' }],
    ['/readyz', { status: 'ready', checks: { store: 'ok', queue: 'ok' } }],
  ])('%s answers 200 without a key', async (path, body) => {
    const res = await fetch(`${server.baseUrl}${path}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(body);
  });

  it('leave the request log alone', async () => {
    await fetch(`${server.baseUrl}/healthz`);
    await fetch(`${server.baseUrl}/readyz`);
    await fetch(`${server.baseUrl}/metrics`);
    await fetch(`${server.baseUrl}/api/v1/documents/get_documents`, { headers: key() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged.some((line) => line.includes('get_documents'))).toBe(true);
    expect(logged.filter((line) => /healthz|readyz|metrics/.test(line))).toEqual([]);
  });

  it('/metrics passes promtool check metrics, with requests by operation and status, and no tenant in any label', async () => {
    await fetch(`${server.baseUrl}/api/v1/documents/get_document/abc`, { headers: key() });
    await fetch(`${server.baseUrl}/api/v1/documents/get_documents`, { headers: key() });
    const res = await fetch(`${server.baseUrl}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(promtoolCheck(text)).toBe('');
    expect(text).toMatch(/docproc_http_request_duration_seconds_count\{operation="getDocument",status="400"\} 1/);
    expect(text).toMatch(/docproc_http_request_duration_seconds_count\{operation="listDocuments",status="200"\} \d/);
    for (const name of [
      'docproc_documents',
      'docproc_queue_depth',
      'docproc_http_connections_open',
      'docproc_http_connections_limited_total',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).not.toMatch(/tenant="/);
  });
});
