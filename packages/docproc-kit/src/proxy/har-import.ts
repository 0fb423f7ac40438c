import type { ObservedExchange } from '@docproc-kit/conformance/observe';
import { BUNDLED_OPERATIONS } from '@docproc-kit/contract/bundled.js';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { documentViews, operationOf } from '../recording/document-views.js';
import type { SeedRecording } from '../recording/seed-recording.js';
import { createLocalJudging } from './judging.js';

/** One entry of a HAR 1.2 log, as far as the import reads it. */
interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: { method?: string; url?: string; headers?: Array<{ name: string; value: string }> };
  response?: {
    status?: number;
    headers?: Array<{ name: string; value: string }>;
    content?: { text?: string; encoding?: string; mimeType?: string };
  };
}

/** What an import of a HAR did with its entries. */
export interface HarImport {
  /** Entries in the log. */
  entries: number;
  /** Entries for the contract's paths, judged. */
  judged: number;
}

// The HAR holds the body decoded: the encoding and length its headers name are no longer the body's.
const STALE_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

const rawHeaders = (headers: Array<{ name: string; value: string }> = [], drop: Set<string> = new Set()) =>
  // HTTP/2 pseudo-headers (`:status`) are no headers of the message.
  headers.filter((h) => !h.name.startsWith(':') && !drop.has(h.name.toLowerCase())).flatMap((h) => [h.name, h.value]);

// Some exports keep the body's type only as `content.mimeType`.
const withContentType = (raw: string[], mimeType: string | undefined) =>
  mimeType && !raw.some((name, i) => i % 2 === 0 && name.toLowerCase() === 'content-type') ? [...raw, 'content-type', mimeType] : raw;

/** Where a URL's path meets the contract's paths: the deployment's base path before it, the API path after. */
function splitBase(pathname: string): { base: string; path: string } | undefined {
  for (let at = 0; at !== -1; at = pathname.indexOf('/', at + 1)) {
    const path = pathname.slice(at);
    if (BUNDLED_OPERATIONS.methodsFor(path).length > 0) return { base: pathname.slice(0, at), path };
  }
  return undefined;
}

/**
 * Records the documents a HAR's answers show (a browser devtools' "Save all as HAR", playwright's
 * `recordHar`) into `recording`: every entry for the contract's paths is judged by the proxy's response
 * judges (not its request judges: an export may drop the key and the request bodies), and only answers
 * judged valid are recorded. An answer that shows documents but whose body the HAR did not keep is
 * counted as `body-not-in-har`.
 * @example const recording = createSeedRecording(); importHar(JSON.parse(text), contract, recording); recording.contents();
 */
export function importHar(har: unknown, contract: Contract, recording: SeedRecording): HarImport {
  const entries = (har as { log?: { entries?: HarEntry[] } })?.log?.entries;
  if (!Array.isArray(entries)) throw new Error('not a HAR: it has no log.entries');
  const judging = createLocalJudging(
    {
      target: 'http://har.invalid',
      spec: 'the bundled contract',
      strict: false,
      bodyCap: Number.MAX_SAFE_INTEGER,
      keep: 100,
      judgeRequests: false,
    },
    contract,
    undefined,
    recording,
  );
  const ordered = entries
    .map((entry, i) => ({ entry, i, at: Date.parse(entry.startedDateTime ?? '') }))
    .sort((a, b) => (a.at === b.at || Number.isNaN(a.at - b.at) ? a.i - b.i : a.at - b.at));
  let judged = 0;
  for (const { entry, at } of ordered) {
    const { request, response } = entry;
    if (!request?.url || !response?.status) continue;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      continue;
    }
    const split = splitBase(url.pathname);
    if (!split) continue;
    const method = (request.method ?? 'GET').toUpperCase();
    const content = response.content ?? {};
    if (content.text === undefined) {
      if (documentViews(operationOf(method, split.path), response.status, { documents: [] })) recording.refuse(['body-not-in-har']);
      continue;
    }
    const bytes = Buffer.from(content.text, content.encoding === 'base64' ? 'base64' : 'utf8');
    const seen: ObservedExchange = {
      seq: ++judged,
      startedAt: Number.isNaN(at) ? 0 : at,
      durationMs: entry.time ?? 0,
      method,
      url: `${split.path}${url.search}`,
      requestRawHeaders: rawHeaders(request.headers),
      requestBody: { kind: 'none' },
      status: response.status,
      responseRawHeaders: withContentType(rawHeaders(response.headers, STALE_HEADERS), content.mimeType),
      responseBody: { bytes, size: bytes.length, truncated: false },
    };
    judging.judge(seen);
  }
  return { entries: entries.length, judged };
}
