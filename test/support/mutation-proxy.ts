// Test-only: an HTTP proxy in front of the real reference server that rewrites traffic to give it exactly
// one defect, so the mutation tests can prove the suite notices it. No defect ever lives in the reference core.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy sees it; `url` is the path and query. */
export interface ProxyRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A response as the proxy returns it. */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends a request to the real server. */
export type Upstream = (request: ProxyRequest) => Promise<ProxyResponse>;

/** One defect: rewrite the request, answer it some other way, and/or rewrite the response. */
export interface Mutation {
  request?(request: ProxyRequest): ProxyRequest;
  respond?(request: ProxyRequest, upstream: Upstream): Promise<ProxyResponse>;
  response?(response: ProxyResponse, request: ProxyRequest): ProxyResponse | Promise<ProxyResponse>;
  /** Writes the response on the wire some other way (chunked, compressed...); default: one write with Content-Length. */
  write?(res: ServerResponse, response: ProxyResponse, request: ProxyRequest): void;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'content-encoding']);

function flatten(headers: IncomingHttpHeaders | Headers): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries)
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Forwards requests to `upstreamBaseUrl` exactly, or with the mutation applied.
 * @example const proxy = await startMutationProxy(server.baseUrl, { response: (r) => ({ ...r, status: 200 }) });
 */
export async function startMutationProxy(
  upstreamBaseUrl: string,
  mutation: Mutation = {},
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const upstream: Upstream = async (request) => {
    const res = await fetch(upstreamBaseUrl + request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body.length > 0 ? { body: new Uint8Array(request.body) } : {}),
      redirect: 'manual',
    });
    return { status: res.status, headers: flatten(res.headers), body: Buffer.from(await res.arrayBuffer()) };
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        let request: ProxyRequest = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: flatten(req.headers),
          body: Buffer.concat(chunks),
        };
        if (mutation.request) request = mutation.request(request);
        let response = mutation.respond ? await mutation.respond(request, upstream) : await upstream(request);
        if (mutation.response) response = await mutation.response(response, request);
        if (mutation.write) return mutation.write(res, response, request);
        res.writeHead(response.status, { ...response.headers, 'content-length': String(response.body.length) });
        res.end(response.body);
      })().catch((error: Error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`mutation proxy: ${error.stack}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      // A mutant may hold a request forever; its connection must not keep the proxy open.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Rewrites a JSON response body with `edit` (responses that are not JSON pass through). */
// biome-ignore lint/suspicious/noExplicitAny: mutants rewrite bodies of any shape, and typing each rewrite would hide the defect it plants
export function editJson(response: ProxyResponse, edit: (body: any) => unknown): ProxyResponse {
  if (!/json/.test(response.headers['content-type'] ?? '')) return response;
  const body = JSON.parse(response.body.toString('utf8')) as unknown;
  const edited = edit(body);
  return { ...response, body: Buffer.from(JSON.stringify(edited === undefined ? body : edited)) };
}

/** Applies `edit` to every document object in a body (upload, list or single document). */
// biome-ignore lint/suspicious/noExplicitAny: see editJson
export function eachDocument(body: any, edit: (doc: Record<string, unknown>) => void): void {
  if (body && Array.isArray(body.documents)) for (const doc of body.documents) edit(doc);
  else if (body && typeof body === 'object' && 'document_id' in body) edit(body);
}

/** The parts of a multipart body: raw header block and data. */
export function splitMultipart(
  body: Buffer,
  contentType: string,
): { boundary: string; parts: Array<{ head: string; data: Buffer }> } | undefined {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) return undefined;
  const parts: Array<{ head: string; data: Buffer }> = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) return undefined;
    const segment = body.subarray(start + 2, next - 2);
    const split = segment.indexOf('\r\n\r\n');
    parts.push({ head: segment.subarray(0, split).toString('latin1'), data: segment.subarray(split + 4) });
    at = next;
  }
  return { boundary, parts };
}

/** A multipart body holding just these parts. */
export function joinMultipart(boundary: string, parts: Array<{ head: string; data: Buffer }>): Buffer {
  const chunks = parts.flatMap((p) => [Buffer.from(`--${boundary}\r\n${p.head}\r\n\r\n`, 'latin1'), p.data, Buffer.from('\r\n')]);
  return Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]);
}

/**
 * Several mutations as one: requests rewritten in order, `respond`s chained (each one's upstream is the
 * next), responses rewritten in order. At most one may write the response itself.
 * @example const both = composeMutations([lenientIntegers, credentialsFromQuery]);
 */
export function composeMutations(mutations: Mutation[]): Mutation {
  const writers = mutations.filter((m) => m.write);
  if (writers.length > 1) throw new Error('at most one composed mutation may write the response');
  return {
    request: (request) => mutations.reduce((r, m) => (m.request ? m.request(r) : r), request),
    respond: (request, upstream) => {
      const chained = mutations.reduceRight<Upstream>((next, m) => (m.respond ? (r) => m.respond!(r, next) : next), upstream);
      return chained(request);
    },
    response: async (response, request) => {
      let out = response;
      for (const m of mutations) if (m.response) out = await m.response(out, request);
      return out;
    },
    ...(writers[0]?.write ? { write: writers[0].write } : {}),
  };
}
