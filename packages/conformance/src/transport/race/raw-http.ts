import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { addGatewayHeaders, DIRECT, proxyFor, type TransportSettings } from '../../definitions/transport-settings.js';
import type { PreparedRequest } from '../http.js';
import { buildMultipart } from '../multipart.js';
import { proxyAuthorization } from '../proxy.js';

/**
 * The exact bytes of a prepared request as HTTP/1.1 with `Connection: close`, so it can be written to a
 * socket by hand (all but its last byte first) opened by `openSocket` with the same settings. File parts are
 * encoded as a browser's form would be; a gateway's headers are added as the suite's dispatcher adds them to
 * fetches (never over the request's own). Plain http through a proxy goes in absolute form (`GET
 * http://host:port/path`, RFC 9112 §3.2.2) with the proxy URL's credentials as `Proxy-Authorization`.
 * @example socket.write(requestBytes(http.prepare({ operation: 'retryDocument', params: { document_id: 7 } }), http.transport));
 */
export function requestBytes(prepared: PreparedRequest, settings: TransportSettings = DIRECT): Buffer {
  const url = new URL(prepared.url);
  const headers = addGatewayHeaders(prepared.wireHeaders, settings.headers);
  const proxy = url.protocol === 'http:' ? proxyFor(url, settings) : undefined;
  const authorization = proxy ? proxyAuthorization(new URL(proxy)) : undefined;
  const body = prepared.request.body;
  let data: Uint8Array | undefined;
  if (body?.kind === 'files') {
    const multipart = buildMultipart(
      body.parts.map((p) => ({ field: p.field, filename: p.filename, contentType: p.contentType, data: p.data })),
    );
    data = multipart.body;
    headers['content-type'] = multipart.contentType;
  } else if (body?.kind === 'raw') data = body.data;
  const target = `${proxy ? url.origin : ''}${url.pathname}${url.search}`;
  const lines = [`${prepared.request.method} ${target} HTTP/1.1`, `host: ${url.host}`, 'connection: close'];
  if (authorization) lines.push(`proxy-authorization: ${authorization}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  // A POST without a body still says so, as every client does.
  if (data !== undefined || prepared.request.method !== 'GET') lines.push(`content-length: ${data?.length ?? 0}`);
  // Header bytes as fetch sends them: each character one byte (values are ByteStrings).
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), data ?? new Uint8Array(0)]);
}

/** A response read off a socket. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Parses everything a server sent on a `Connection: close` socket: interim 1xx answers skipped, the body
 * framed by chunked transfer coding, Content-Length or the end of the stream, and decoded when the
 * server compressed it. Throws a one-line reason when the bytes are not an HTTP/1.x response.
 * @example const { status, headers, body } = parseResponse(Buffer.concat(chunks));
 */
export function parseResponse(bytes: Buffer, maxBodyBytes = 2 ** 32): RawResponse {
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(CRLF2, at);
    if (end < 0) throw new Error(`no complete response head in ${bytes.length} bytes`);
    const [statusLine = '', ...fields] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
    if (!m) throw new Error(`not an HTTP/1.x status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
    const status = Number(m[1]);
    at = end + CRLF2.length;
    if (status >= 100 && status < 200) continue;
    const headers = new Headers();
    for (const field of fields) {
      const colon = field.indexOf(':');
      if (colon > 0) headers.append(field.slice(0, colon).trim(), field.slice(colon + 1).trim());
    }
    let body: Buffer;
    if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(bytes.subarray(at));
    else if (headers.has('content-length')) body = bytes.subarray(at, at + Number(headers.get('content-length')));
    else body = bytes.subarray(at);
    if (body.length > maxBodyBytes) throw new BodyTooLarge(`more than ${maxBodyBytes} bytes of body`);
    return { status, headers, body: decode(body, headers.get('content-encoding'), maxBodyBytes) };
  }
}

function dechunk(data: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const line = data.indexOf('\r\n', at);
    if (line < 0) throw new Error('a chunked body that ends inside a chunk size');
    const size = Number.parseInt(data.subarray(at, line).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) throw new Error('a chunked body with a chunk size that is not hexadecimal');
    if (size === 0) return Buffer.concat(chunks);
    chunks.push(data.subarray(line + 2, line + 2 + size));
    at = line + 2 + size + 2;
  }
}

/** A body larger than the cap (decoded): the answer is judged too large, from its head. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
}

function decode(body: Buffer, encoding: string | null, maxOutputLength: number): Buffer {
  try {
    switch ((encoding ?? '').trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body, { maxOutputLength });
      case 'deflate':
        return inflateSync(body, { maxOutputLength });
      case 'br':
        return brotliDecompressSync(body, { maxOutputLength });
      default:
        return body;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new BodyTooLarge(`more than ${maxOutputLength} bytes decoded`);
    throw error;
  }
}

/** The status and headers of the first final answer in `bytes`, when its head arrived whole. */
export function parseHead(bytes: Buffer): { status: number; headers: Headers } | undefined {
  for (let at = 0; ; ) {
    const end = bytes.indexOf(CRLF2, at);
    if (end < 0) return undefined;
    const [statusLine = '', ...fields] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
    if (!m) return undefined;
    at = end + CRLF2.length;
    const status = Number(m[1]);
    if (status >= 100 && status < 200) continue;
    const headers = new Headers();
    for (const field of fields) {
      const colon = field.indexOf(':');
      if (colon > 0) headers.append(field.slice(0, colon).trim(), field.slice(colon + 1).trim());
    }
    return { status, headers };
  }
}
