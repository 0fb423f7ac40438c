import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DIRECT } from '../../definitions/transport-settings.js';
import type { PreparedRequest } from '../http.js';
import { parseResponse, requestBytes } from './raw-http.js';

const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');

describe('parseResponse', () => {
  it.each([
    {
      case: 'a Content-Length body',
      bytes: Buffer.concat([head(['HTTP/1.1 202 Accepted', 'Content-Length: 2']), Buffer.from('{}extra')]),
      body: '{}',
    },
    {
      case: 'a body up to the end of the stream',
      bytes: Buffer.concat([head(['HTTP/1.1 200 OK']), Buffer.from('{"a":1}')]),
      body: '{"a":1}',
    },
    {
      case: 'a chunked body',
      bytes: Buffer.concat([
        head(['HTTP/1.1 200 OK', 'Transfer-Encoding: chunked']),
        Buffer.from('3;x=y\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n'),
      ]),
      body: '{"a":1}',
    },
    {
      case: 'a gzip body',
      bytes: Buffer.concat([head(['HTTP/1.1 200 OK', 'CONTENT-ENCODING: gzip']), gzipSync('{"a":1}')]),
      body: '{"a":1}',
    },
    {
      case: 'an interim 100 Continue first',
      bytes: Buffer.concat([head(['HTTP/1.1 100 Continue']), head(['HTTP/1.1 409 Conflict', 'Content-Length: 2']), Buffer.from('{}')]),
      body: '{}',
    },
  ])('reads $case', ({ bytes, body }) => {
    expect(new TextDecoder().decode(parseResponse(bytes).body)).toBe(body);
  });

  it('keeps the status and the headers, whatever their case', () => {
    const parsed = parseResponse(head(['HTTP/1.0 409 Conflict', 'X-REQUEST-ID: r-1', 'Content-Length: 0']));
    expect(parsed.status).toBe(409);
    expect(parsed.headers.get('x-request-id')).toBe('r-1');
  });

  it.each([
    ['nothing', Buffer.alloc(0)],
    ['a head that never ends', Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n')],
    ['not HTTP', head(['SSH-2.0-OpenSSH_9.6'])],
  ])('says why it cannot read %s', (_, bytes) => {
    expect(() => parseResponse(bytes)).toThrow();
  });
});

describe('requestBytes', () => {
  const prepared = (method: string, body?: PreparedRequest['request']['body']): PreparedRequest => ({
    seq: 1,
    request: { method, url: 'http://h:1/api/v1/x?a=1', key: 'primary', headers: {}, ...(body ? { body } : {}) },
    url: 'http://h:1/api/v1/x?a=1',
    target: { kind: 'unknown-path', label: 'x', coverageKey: 'x', responses: {} },
    wireHeaders: { 'x-api-key': 'k' },
    reproduce: () => 'curl',
  });

  it('writes a body-less POST with Content-Length 0 and asks the server to close', () => {
    const text = requestBytes(prepared('POST')).toString('latin1');
    expect(text).toMatch(
      /^POST \/api\/v1\/x\?a=1 HTTP\/1\.1\r\nhost: h:1\r\nconnection: close\r\nx-api-key: k\r\ncontent-length: 0\r\n\r\n$/,
    );
  });

  it('writes file parts as a multipart body of the length it says', () => {
    const bytes = requestBytes(
      prepared('POST', {
        kind: 'files',
        parts: [{ field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data: new Uint8Array([37, 80]) }],
      }),
    );
    const split = bytes.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/.exec(bytes.subarray(0, split).toString('latin1'))![1]);
    expect(bytes.length - split - 4).toBe(length);
    expect(bytes.subarray(0, split).toString('latin1')).toMatch(/content-type: multipart\/form-data; boundary=/);
  });
});

describe('requestBytes through a forward proxy', () => {
  const prepared: PreparedRequest = {
    seq: 1,
    request: { method: 'GET', url: 'http://h:1/api/v1/x?a=1', key: 'primary', headers: {} },
    url: 'http://h:1/api/v1/x?a=1',
    target: { kind: 'unknown-path', label: 'x', coverageKey: 'x', responses: {} },
    wireHeaders: { 'x-api-key': 'k' },
    reproduce: () => 'curl',
  };
  const through = (http: string, noProxy?: string) => ({ ...DIRECT, proxy: { http, ...(noProxy ? { noProxy } : {}) } });

  it('writes plain http in absolute form, with the proxy URL credentials as Proxy-Authorization', () => {
    const text = requestBytes(prepared, through('http://u:p@proxy:3128')).toString('latin1');
    expect(text).toMatch(/^GET http:\/\/h:1\/api\/v1\/x\?a=1 HTTP\/1\.1\r\nhost: h:1\r\n/);
    expect(text).toContain(`\r\nproxy-authorization: Basic ${Buffer.from('u:p').toString('base64')}\r\n`);
  });

  it('writes origin form to a host NO_PROXY names', () => {
    expect(requestBytes(prepared, through('http://proxy:3128', 'h')).toString('latin1')).toMatch(/^GET \/api\/v1\/x\?a=1 HTTP\/1\.1\r\n/);
  });
});
