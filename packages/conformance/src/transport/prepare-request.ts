import { join } from 'node:path';
import type { CredentialPlace, KeyChoice, KeyVariant, SentRequest } from '../definitions/exchange.js';
import { curlTransportArgs, type TransportSettings } from '../definitions/transport-settings.js';
import { curlCommand, KEY_WORD } from './curl.js';
import { resolveTarget } from './documented-target.js';
import type { HttpOptions, PreparedRequest, SendOptions } from './http-types.js';

function keyValue(key: KeyChoice, keys: HttpOptions['keys']): string | undefined {
  if (key === 'none') return undefined;
  if (key === 'primary') return keys.primary;
  if (key === 'secondary') {
    if (!keys.secondary) throw new Error('conformance suite bug: the second key was used without --second-api-key');
    return keys.secondary;
  }
  if ('variant' in key) return keyVariant(keys.primary, key.variant);
  if ('misplaced' in key) return undefined;
  return key.literal;
}

/**
 * Puts the run's key where `place` says, into the URL, headers and form fields actually sent; the recorded
 * URL names the key by its environment variable instead, so no key is ever kept or printed.
 */
function misplaceKey(
  place: CredentialPlace,
  key: string,
  sent: { url: string; recordedUrl: string; headers: Record<string, string>; fields: Array<[string, string]>; hasForm: boolean },
): void {
  if (place.kind === 'query') {
    const join = sent.url.includes('?') ? '&' : '?';
    sent.url += `${join}${encodeURIComponent(place.name)}=${encodeURIComponent(key)}`;
    sent.recordedUrl += `${join}${encodeURIComponent(place.name)}=${KEY_WORD}`;
  } else if (place.kind === 'header') sent.headers[place.name] = place.value(key);
  else if (place.kind === 'cookie') sent.headers.cookie = `${place.name}=${encodeURIComponent(key)}`;
  else if (sent.hasForm) sent.fields.push([place.name, key]);
  else throw new Error('conformance suite bug: a key in a form field needs an upload of file parts');
}

/** The text with every letter in its other case (`aB` → `Ab`). */
export function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** The run's key made into a near-miss: letter case swapped, or wrapped in U+00A0 (sent as the byte 0xA0). */
export function keyVariant(key: string, variant: KeyVariant): string {
  return variant === 'nbsp-padded' ? `\u00a0${key}\u00a0` : swapCase(key);
}

/**
 * Builds requests ready to send, numbered from 1: the method and path of a contract operation (or a raw
 * path), the query, the run's key where the request wants it, and a curl reproducer made on demand.
 * @example const prepare = createPrepare(options, DIRECT); const prepared = prepare({ operation: 'getDocuments', query: { limit: 1 } });
 */
export function createPrepare(
  options: Pick<HttpOptions, 'baseUrl' | 'keys' | 'contract' | 'requestIdPrefix' | 'reproDir' | 'reproShownAs'>,
  transport: TransportSettings,
): (o: SendOptions) => PreparedRequest {
  let seq = 0;
  const base = options.baseUrl.replace(/\/+$/, '');
  return (o) => {
    const number = ++seq;
    const method = (o.method ?? (o.operation ? options.contract.operation(o.operation)?.method : undefined) ?? 'get').toUpperCase();
    const template = o.operation ? options.contract.operation(o.operation)?.path : undefined;
    if (!o.path && !template) throw new Error(`conformance suite bug: unknown operation ${o.operation}`);
    const pathname = o.path ?? template!.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(o.params?.[name])));
    const search =
      o.rawQuery ??
      new URLSearchParams(Array.isArray(o.query) ? o.query : Object.entries(o.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const url = `${base}${pathname}${search ? `?${search}` : ''}`;
    const requestId = o.requestId === null ? undefined : (o.requestId ?? `${options.requestIdPrefix}-${number}`);
    const headers: Record<string, string> = { ...(requestId !== undefined ? { 'x-request-id': requestId } : {}), ...o.headers };
    if (o.body?.kind === 'raw' && o.body.contentType !== undefined) headers['content-type'] = o.body.contentType;
    const key = o.key ?? 'primary';
    const apiKey = keyValue(key, options.keys);
    const sent = {
      url,
      recordedUrl: url,
      headers: { ...headers, ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}) },
      fields: [] as Array<[string, string]>,
      hasForm: o.body?.kind === 'files',
    };
    if (typeof key === 'object' && 'misplaced' in key) misplaceKey(key.misplaced, options.keys.primary, sent);
    const request: SentRequest = { method, url: sent.recordedUrl, key, headers, ...(o.body ? { body: o.body } : {}) };
    let reproduced: string | undefined;
    return {
      seq: number,
      request,
      url: sent.url,
      target: resolveTarget(options.contract, method, pathname),
      wireHeaders: sent.headers,
      ...(sent.fields.length ? { extraFields: sent.fields } : {}),
      reproduce: () =>
        (reproduced ??= curlCommand(request, join(options.reproDir, 'bodies'), number, {
          shownAs: join(options.reproShownAs ?? options.reproDir, 'bodies'),
          transportArgs: curlTransportArgs(transport, base),
        })),
      ...(requestId !== undefined ? { requestId } : {}),
    };
  };
}
