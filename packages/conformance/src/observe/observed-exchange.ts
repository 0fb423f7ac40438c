import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { redactQuery } from '@docproc-kit/reference/http/redaction.js';
import type { Exchange, SentRequest } from '../definitions/exchange.js';
import { curlCommand, shellQuote } from '../transport/curl.js';
import { resolveTarget } from '../transport/documented-target.js';
import { decodeBody } from '../transport/transport.js';

/** A body as an observer kept it: its first bytes, and whether there was more. */
export interface ObservedBody {
  bytes: Buffer;
  /** Bytes of the whole body. */
  size: number;
  /** The body was longer than what was kept: `bytes` is only its beginning. */
  truncated: boolean;
}

/** One part of a multipart/form-data body, as its headers said: never its bytes. */
export interface ObservedPart {
  /** The `name` of its Content-Disposition (undefined when absent). */
  name: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
  /** Bytes of the part's body. */
  size: number;
}

/** What was read of a multipart/form-data request body. */
export interface ObservedMultipart {
  parts: ObservedPart[];
  /** Set when the body is not well-formed multipart as far as it could be followed. */
  malformed?: string;
}

/**
 * One exchange as an observer (a proxy, a HAR) saw it pass, as plain values: what the judges read of it
 * (the key only in its headers, never kept past judging; no file bytes).
 */
export interface ObservedExchange {
  seq: number;
  startedAt: number;
  durationMs: number;
  method: string;
  /** The path and query as the client sent them. */
  url: string;
  /** The request's headers as sent (the key still in them: only ever read, never kept past judging). */
  requestRawHeaders: string[];
  requestBody: { kind: 'none' } | { kind: 'multipart'; tapped: ObservedMultipart } | { kind: 'other'; size: number };
  status: number;
  responseRawHeaders: string[];
  responseBody: ObservedBody;
}

/** A flat raw header list (Node's `rawHeaders`) as a Headers object (repeated names joined, as fetch does). */
export function headersOf(rawHeaders: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    try {
      headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
    } catch {
      // A header value fetch's Headers refuses is judged as absent; the bytes passed through regardless.
    }
  }
  return headers;
}

/** Headers that carry or may carry a key: never kept, never written. */
const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie']);
/** Headers a reproducer leaves to curl (it sets them itself for the body it sends). */
const CURL_OWN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'user-agent', 'expect']);

/** The request's headers worth showing, without the key or anything that could carry one. */
export function shownHeaders(raw: readonly string[], body: ObservedExchange['requestBody']): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (SECRET_HEADERS.has(name) || CURL_OWN_HEADERS.has(name)) continue;
    // curl -F writes its own multipart Content-Type with its own boundary.
    if (name === 'content-type' && body.kind === 'multipart') continue;
    out[name] = raw[i + 1]!;
  }
  return out;
}

function decompressed(body: ObservedBody, encoding: string | null, cap: number): Buffer | undefined {
  if (!encoding || encoding === 'identity') return body.bytes;
  // Only a whole body can be inflated; a cut one is not judged on its bytes.
  if (body.truncated) return undefined;
  const options = { maxOutputLength: cap };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body.bytes, options);
    if (encoding === 'deflate') return inflateSync(body.bytes, options);
    if (encoding === 'br') return brotliDecompressSync(body.bytes, options);
  } catch {
    return undefined;
  }
  return undefined;
}

function reproducer(seen: ObservedExchange, request: SentRequest): string {
  const command = curlCommand({ ...request, body: undefined } as SentRequest, '', seen.seq);
  if (seen.requestBody.kind === 'none') return command;
  if (seen.requestBody.kind === 'other')
    return `${command} --data-binary @request-body.bin  # the body (${seen.requestBody.size} bytes) is not kept`;
  // A file's bytes are never kept: the command names each file by its filename, for the user to supply.
  const args = seen.requestBody.tapped.parts.flatMap((part) => {
    const filename = part.filename === undefined ? '' : `;filename="${part.filename.replace(/["\\]/g, '\\$&')}"`;
    const type = part.contentType ? `;type=${part.contentType}` : '';
    const value = part.filename === undefined ? '<value not kept>' : `@${part.filename}`;
    return ['-F', shellQuote(`${part.name ?? ''}=${value}${filename}${type}`)];
  });
  return [command, ...args].join(' ');
}

/** Options of {@link toExchange}. */
export interface ExchangeContext {
  contract: Contract;
  /** The target's base URL: reproducers send to it, not to the proxy. */
  target: URL;
  /** The most bytes of a decoded body the judge reads. */
  bodyCap: number;
}

/**
 * The exchange as the conformance suite's checks read it, plus whether its body could be judged (a body over
 * the cap, or one whose encoding did not decode, is judged on its status and headers only).
 * @example const { exchange, bodyJudged } = toExchange(seen, { contract, target, bodyCap });
 */
export function toExchange(
  seen: ObservedExchange,
  { contract, target, bodyCap }: ExchangeContext,
): { exchange: Exchange; bodyJudged: boolean } {
  const headers = headersOf(seen.responseRawHeaders);
  const requestHeaders = headersOf(seen.requestRawHeaders);
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const isJson = mediaType === 'application/json' || mediaType.endsWith('+json');
  const bytes = decompressed(seen.responseBody, headers.get('content-encoding'), bodyCap);
  const bodyJudged = bytes !== undefined && !seen.responseBody.truncated;
  const { text, invalidUtf8 } = bodyJudged ? decodeBody(bytes, isJson) : { text: '', invalidUtf8: undefined };
  let json: unknown;
  let jsonError = invalidUtf8;
  if (bodyJudged && isJson && invalidUtf8 === undefined) {
    try {
      json = JSON.parse(text);
    } catch (error) {
      jsonError = (error as Error).message;
    }
  }
  const pathname = seen.url.split('?')[0]!;
  const request: SentRequest = {
    method: seen.method,
    url: `${target.origin}${target.pathname.replace(/\/+$/, '')}${redactQuery(seen.url)}`,
    key: requestHeaders.has('x-api-key') ? 'primary' : 'none',
    headers: shownHeaders(seen.requestRawHeaders, seen.requestBody),
  };
  const requestId = requestHeaders.get('x-request-id') ?? undefined;
  let reproduced: string | undefined;
  const exchange: Exchange = {
    seq: seen.seq,
    ...(requestId !== undefined ? { requestId } : {}),
    request,
    target: resolveTarget(contract, seen.method, pathname),
    status: seen.status,
    headers,
    mediaType,
    text,
    json,
    ...(jsonError !== undefined ? { jsonError } : {}),
    durationMs: seen.durationMs,
    reproduce: () => (reproduced ??= reproducer(seen, request)),
  };
  return { exchange, bodyJudged };
}
