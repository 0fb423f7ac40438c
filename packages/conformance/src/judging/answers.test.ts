import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import { reasonPhrases } from '../checks/reason-phrases.js';
import { createTestRecord } from '../definitions/records.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { resolveTarget } from '../transport/documented-target.js';
import type { PreparedRequest } from '../transport/http.js';
import { judgeTransient } from './answers.js';
import { createJudge } from './judge.js';

// The transient answers the HTTP layer hands over before it waits them out: the service's own 429/503 are
// judged as any answer is, an intermediary's is a warning, a gateway's 502/504 is not judged.
const contract = await loadContract();
const REQUEST_ID = 'conformance-run-list-1';
const prepared: PreparedRequest = {
  seq: 1,
  request: {
    method: 'GET',
    url: 'http://service.test/api/v1/documents/get_documents',
    key: 'primary',
    headers: { 'x-request-id': REQUEST_ID },
  },
  url: 'http://service.test/api/v1/documents/get_documents',
  target: resolveTarget(contract, 'GET', '/api/v1/documents/get_documents'),
  requestId: REQUEST_ID,
  wireHeaders: {},
  reproduce: () => 'curl ...',
};

function answer(status: number, headers: Record<string, string>, code?: string) {
  const body = code
    ? { type: 'about:blank', title: reasonPhrases(status)[0], status, detail: 'not now', code, request_id: REQUEST_ID }
    : { type: 'about:blank' };
  return {
    status,
    headers: new Headers({ 'content-type': 'application/problem+json', 'x-request-id': REQUEST_ID, ...headers }),
    bytes: new TextEncoder().encode(JSON.stringify(body)),
    durationMs: 3,
  };
}

function judged(status: number, headers: Record<string, string>, code?: string) {
  const judge = createJudge('full');
  const record = createTestRecord();
  judge.use(record);
  try {
    judgeTransient(judge, prepared, answer(status, headers, code), contract, false);
    return { failed: undefined, record };
  } catch (error) {
    if (!(error instanceof ConformanceFailure)) throw error;
    return { failed: `${error.record.check}: ${error.record.received}`, record };
  }
}

describe('a transient answer, before it is waited out', () => {
  it.each([
    [
      'a 503 with Retry-After in seconds (never-5xx does not apply: it is the documented "wait, then retry")',
      503,
      { 'retry-after': '2' },
      'service_unavailable',
      undefined,
    ],
    ['a 429 with Retry-After in seconds', 429, { 'retry-after': '0' }, 'too_many_requests', 1],
  ])('%s passes', (_, status, headers, code, never5xx) => {
    const { failed, record } = judged(status, headers, code);
    expect(failed).toBeUndefined();
    expect(record.counts['response.headers-present']?.passed).toBe(1);
    expect(record.counts['response.never-5xx']?.passed).toBe(never5xx);
  });

  it.each([
    ['a 503 with no Retry-After', 503, {}, 'service_unavailable', /Retry-After is missing/],
    [
      'a 429 with Retry-After as an HTTP-date',
      429,
      { 'retry-after': 'Sat, 28 Nov 2026 10:00:00 GMT' },
      'too_many_requests',
      /Retry-After: "Sat/,
    ],
    ['a 503 with a negative Retry-After', 503, { 'retry-after': '-1' }, 'service_unavailable', /Retry-After: "-1"/],
    ['a 503 whose problem has the wrong code', 503, { 'retry-after': '1' }, 'too_many_requests', /too_many_requests/],
  ])('%s fails, named', (_, status, headers, code, named) => {
    expect(judged(status, headers, code).failed).toMatch(named);
  });

  it("an nginx 503 with none of the service's marks is a warning naming it, not a failure", () => {
    const { failed, record } = judged(503, { server: 'nginx/1.27', 'x-request-id': '' }, undefined);
    expect(failed).toBeUndefined();
    expect(record.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/answered by nginx itself/)]);
  });

  it.each([502, 504])("a gateway's %i is not judged", (status) => {
    const { failed, record } = judged(status, {}, undefined);
    expect(failed).toBeUndefined();
    expect(record.counts).toEqual({});
  });
});
