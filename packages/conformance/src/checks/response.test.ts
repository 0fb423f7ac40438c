import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../definitions/exchange.js';
import { createTestRecord } from '../definitions/records.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { judgeResponse } from '../judging/answers.js';
import { createJudge } from '../judging/judge.js';
import { resolveTarget } from '../transport/documented-target.js';
import { IntermediaryAnswered } from '../transport/intermediary.js';

// The response checks on hand-made exchanges: each broken response must fail the one check that names it.
const contract = await loadContract();
const doc = {
  document_id: 7,
  filename: 'a.pdf',
  content_type: 'application/pdf',
  size_bytes: 3,
  status: 'completed',
  attempts: 1,
  error: null,
  content: 'text',
  created_at: '2024-05-02T09:14:03.120Z',
  updated_at: '2024-05-02T09:14:04.000Z',
  processed_at: '2024-05-02T09:14:04.000Z',
};
const { content: _, ...summary } = doc;
const page = { page: 1, limit: 20, total: 1, total_pages: 1 };
const notFound = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no', code: 'not_found' };

function exchange({
  status = 200,
  body = doc as unknown,
  contentType = 'application/json',
  headers = {} as Record<string, string | null>,
  path = '/api/v1/documents/get_document/7',
  method = 'GET',
  text,
}: {
  status?: number;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string | null>;
  path?: string;
  method?: string;
  text?: string;
} = {}): Exchange {
  const h = new Headers({ 'content-type': contentType, 'x-request-id': 'req-1' });
  for (const [k, v] of Object.entries(headers))
    if (v === null) h.delete(k);
    else h.set(k, v);
  const raw = text ?? JSON.stringify(body);
  let json: unknown;
  try {
    json = /json/.test(contentType) ? JSON.parse(raw) : undefined;
  } catch {
    json = undefined;
  }
  return {
    seq: 1,
    requestId: 'req-1',
    request: { method, url: `http://h${path}`, key: 'primary', headers: {} },
    target: resolveTarget(contract, method, path),
    status,
    headers: h,
    mediaType: contentType.split(';')[0]!,
    text: raw,
    json,
    ...(json === undefined && /json/.test(contentType) ? { jsonError: 'bad' } : {}),
    durationMs: 1,
    reproduce: () => 'curl …',
  };
}

function failingCheck(
  e: Exchange,
  { strict = false, profile = 'full' }: { strict?: boolean; profile?: 'contract' | 'full' } = {},
): string | undefined {
  const judge = createJudge(profile);
  judge.use(createTestRecord());
  try {
    judgeResponse(e, { contract, strict, judge });
    return undefined;
  } catch (error) {
    if (error instanceof ConformanceFailure) return error.record.check;
    throw error;
  }
}

describe('response checks', () => {
  it('pass a response exactly as documented', () => {
    expect(failingCheck(exchange())).toBeUndefined();
    expect(
      failingCheck(exchange({ path: '/api/v1/documents/get_documents', body: { documents: [summary], pagination: page } })),
    ).toBeUndefined();
    expect(failingCheck(exchange({ status: 404, body: notFound, contentType: 'application/problem+json' }))).toBeUndefined();
  });

  it.each([
    {
      broken: 'a 500',
      e: () =>
        exchange({ status: 500, body: { ...notFound, status: 500, code: 'internal_error' }, contentType: 'application/problem+json' }),
      check: 'response.never-5xx',
    },
    { broken: 'an undocumented 201', e: () => exchange({ status: 201 }), check: 'response.status-documented' },
    {
      broken: 'a 404 as text/plain',
      e: () => exchange({ status: 404, contentType: 'text/plain', text: 'Not Found' }),
      check: 'response.error-is-problem',
    },
    {
      broken: 'a problem whose status is not the HTTP status',
      e: () => exchange({ status: 404, body: { ...notFound, status: 400 }, contentType: 'application/problem+json' }),
      check: 'response.error-is-problem',
    },
    {
      broken: 'a 200 as text/html',
      e: () => exchange({ contentType: 'text/html', text: '<p>' }),
      check: 'response.content-type-documented',
    },
    { broken: 'no X-Request-Id', e: () => exchange({ headers: { 'x-request-id': null } }), check: 'response.headers-present' },
    {
      broken: 'an X-Request-Id of 201 characters',
      e: () => exchange({ headers: { 'x-request-id': 'r'.repeat(201) } }),
      check: 'response.headers-present',
    },
    { broken: 'a body that is not JSON', e: () => exchange({ text: '{"document_id":' }), check: 'response.body-matches-schema' },
    {
      broken: 'a missing required field',
      e: () => exchange({ body: { ...doc, filename: undefined } }),
      check: 'response.body-matches-schema',
    },
    {
      broken: 'a 404 with the code of a 400',
      e: () => exchange({ status: 404, body: { ...notFound, code: 'invalid_request' }, contentType: 'application/problem+json' }),
      check: 'response.error-code-documented',
    },
    {
      broken: 'another request id than the one sent',
      e: () => exchange({ headers: { 'x-request-id': 'server-made' } }),
      check: 'response.request-id-echoed',
    },
    {
      broken: 'a completed document without processed_at',
      e: () => exchange({ body: { ...doc, processed_at: null } }),
      check: 'document.state-consistent',
    },
    {
      broken: 'a failed document without error',
      e: () => exchange({ body: { ...doc, status: 'failed', content: null } }),
      check: 'document.state-consistent',
    },
    {
      broken: 'a processing document with content',
      e: () => exchange({ body: { ...doc, status: 'processing', processed_at: null } }),
      check: 'document.state-consistent',
    },
    {
      broken: 'a 405 without Allow',
      e: () =>
        exchange({
          status: 405,
          method: 'DELETE',
          body: { ...notFound, status: 405, title: 'Method Not Allowed', code: 'method_not_allowed' },
          contentType: 'application/problem+json',
        }),
      check: 'response.headers-present',
    },
    {
      broken: "a problem whose request_id is not the answer's X-Request-Id",
      e: () => exchange({ status: 404, body: { ...notFound, request_id: 'another' }, contentType: 'application/problem+json' }),
      check: 'response.problem-refers-to-request',
    },
    { broken: 'an unknown path answered 200', e: () => exchange({ path: '/api/v1/nope' }), check: 'response.status-documented' },
    {
      broken: 'a problem whose type is not about:blank',
      e: () =>
        exchange({ status: 404, body: { ...notFound, type: 'https://errors.example/not-found' }, contentType: 'application/problem+json' }),
      check: 'response.error-is-problem',
    },
    {
      broken: 'a list item with content, which the contract forbids',
      e: () => exchange({ path: '/api/v1/documents/get_documents', body: { documents: [doc], pagination: page } }),
      check: 'response.no-forbidden-properties',
    },
  ])('fail $check for $broken', ({ e, check }) => {
    expect(failingCheck(e())).toBe(check);
  });

  it('fail a forbidden property even without --strict, and only as forbidden (not as a schema or undocumented failure)', () => {
    const list = () => exchange({ path: '/api/v1/documents/get_documents', body: { documents: [doc], pagination: page } });
    expect(failingCheck(list())).toBe('response.no-forbidden-properties');
    expect(failingCheck(list(), { strict: true })).toBe('response.no-forbidden-properties');
  });

  it.each<[string, { request_id?: string; instance?: string; path?: string }]>([
    ['the request id, and the path', { request_id: 'req-1', instance: '/api/v1/documents/get_document/7' }],
    ['another path in instance (a gateway may rewrite the path the service sees)', { instance: '/documents/get_document/7' }],
    ['neither (both are optional)', {}],
  ])('pass a problem that refers to its request with %s', (_, { path = '/api/v1/documents/get_document/7', ...fields }) => {
    expect(
      failingCheck(exchange({ status: 404, path, body: { ...notFound, ...fields }, contentType: 'application/problem+json' })),
    ).toBeUndefined();
  });

  const problemOf = (status: number, fields: Record<string, unknown>) =>
    exchange({ status, body: { ...notFound, status, ...fields }, contentType: 'application/problem+json' });

  it.each<[string, number, Record<string, unknown>]>([
    ['titled with its error code', 404, { title: 'not_found' }],
    ['with an empty title', 404, { title: '' }],
    ['titled with the reason phrase of another status', 404, { title: 'Bad Request' }],
    ['with an empty detail', 404, { detail: '' }],
    ['with a detail of spaces', 404, { detail: '  ' }],
  ])('fail response.problem-title-and-detail for a problem %s', (_, status, fields) => {
    expect(failingCheck(problemOf(status, fields))).toBe('response.problem-title-and-detail');
  });

  it.each<[string, number, string]>([
    ['in another case', 404, 'NOT FOUND'],
    ["as Node and Express name a 413 (RFC 7231's name)", 413, 'Payload Too Large'],
    ['as RFC 9110 names a 413', 413, 'Content Too Large'],
  ])('pass a problem titled with the reason phrase %s', (_, status, title) => {
    const code = status === 404 ? 'not_found' : 'file_too_large';
    const path = status === 404 ? '/api/v1/documents/get_document/7' : '/api/v1/documents/upload_files';
    const e = exchange({
      status,
      path,
      method: status === 404 ? 'GET' : 'POST',
      body: { ...notFound, status, title, code },
      contentType: 'application/problem+json',
    });
    expect(failingCheck(e)).toBeUndefined();
  });

  it('only warn about undocumented properties, unless strict', () => {
    const extra = () => exchange({ body: { ...doc, storage_path: '/x' } });
    expect(failingCheck(extra())).toBeUndefined();
    expect(failingCheck(extra(), { strict: true })).toBe('response.no-undocumented-properties');
  });

  describe("an intermediary's own answer", () => {
    const nginxPage =
      '<html>\r\n<head><title>400 Bad Request</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
    const html400 = (headers: Record<string, string | null>) =>
      exchange({ status: 400, contentType: 'text/html', text: nginxPage, headers: { 'x-request-id': null, ...headers } });
    const warned = (e: Exchange) => {
      const judge = createJudge('full');
      const record = createTestRecord();
      judge.use(record);
      const thrown = (() => {
        try {
          judgeResponse(e, { contract, strict: false, judge });
          return undefined;
        } catch (error) {
          return error;
        }
      })();
      return { thrown, warnings: record.warnings.map((w) => `${w.check}: ${w.message}`) };
    };

    it.each([
      ["nginx's HTML 400 with Server: nginx and no X-Request-Id", html400({ server: 'nginx' })],
      ["nginx's HTML 400 named only by its page", html400({})],
      [
        "a gateway's problem+json 400 with its own request id, Server: nginx",
        exchange({
          status: 400,
          body: { ...notFound, status: 400, title: 'Bad Request', code: 'invalid_request' },
          contentType: 'application/problem+json',
          headers: { server: 'nginx', 'x-request-id': 'f00dfeed' },
        }),
      ],
      [
        "Envoy's 503 as text/plain named by Via",
        exchange({
          status: 503,
          contentType: 'text/plain',
          text: 'upstream connect error',
          headers: { via: '1.1 envoy', 'x-request-id': null },
        }),
      ],
    ])('is a warning naming the intermediary, and a failure with --strict: %s', (_, e) => {
      const { thrown, warnings } = warned(e);
      expect(thrown).toBeInstanceOf(IntermediaryAnswered);
      expect(warnings).toEqual([expect.stringMatching(/^response\.answered-by-service: .* made by (nginx|Envoy) itself/)]);
      expect(failingCheck(e, { strict: true })).toBe('response.answered-by-service');
    });

    it.each([
      [
        'an HTML 400 without X-Request-Id and nothing naming a proxy',
        exchange({ status: 400, contentType: 'text/html', text: '<html>400</html>', headers: { 'x-request-id': null } }),
        'response.error-is-problem',
      ],
      [
        'an HTML 400 with the echoed X-Request-Id behind nginx',
        html400({ server: 'nginx', 'x-request-id': 'req-1' }),
        'response.error-is-problem',
      ],
      [
        'a 400 without X-Request-Id from a server named by its own product',
        exchange({
          status: 400,
          body: { ...notFound, status: 400, code: 'invalid_request' },
          contentType: 'application/problem+json',
          headers: { server: 'uvicorn', 'x-request-id': null },
        }),
        'response.headers-present',
      ],
    ])("stays the service's failure when no intermediary is evidenced: %s", (_, e, check) => {
      expect(warned(e).warnings).toEqual([]);
      expect(failingCheck(e)).toBe(check);
    });
  });

  it('leave the request-id echo to the full profile (a mock cannot echo)', () => {
    expect(failingCheck(exchange({ headers: { 'x-request-id': 'server-made' } }), { profile: 'contract' })).toBeUndefined();
  });
});
