import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { createKeyring } from '@docproc-kit/reference/api/keys.js';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from '@docproc-kit/reference/journal/request-journal.js';
import { createMemoryReference } from '@docproc-kit/reference/memory-reference.js';
import {
  createRandom,
  DEFAULT_CONCURRENCY,
  DEFAULT_PROCESSING_DELAY_MS,
  MAX_PROCESSING_DELAY_MS,
} from '@docproc-kit/reference/processing/settings.js';
import { createControls, type DocprocControls } from './controls.js';
import { applySeed, type DocprocSeed, planSeed } from './seed-option.js';
import { createTextLayerExtractor, type ExtractImageText, IN_PROCESS_RUN_BUDGET_MS } from './text-layer-extractor.js';

/** Options of the in-process mock besides where it answers; every one is optional. */
export interface DocprocMockSettings {
  /** Accepted keys, each its own tenant (default: the dev key `docproc-dev-key`). */
  apiKeys?: string[];
  /** Minimum time a run stays `processing`, in ms (default 1500, as `docproc serve`; 0 for fast tests). */
  processingDelayMs?: number;
  /** Share (0..1) of otherwise good runs that fail with `processing_error` (default 0). */
  failureRate?: number;
  /**
   * A number makes simulated failures reproducible. Documents to start with instead: what `controls.seed()`
   * takes, or a seed file's contents (`docproc proxy --record`, `docproc seed from-har`, `--seed-file`); every
   * request waits until they are created.
   */
  seed?: number | DocprocSeed;
  /** The text of an uploaded PNG or JPEG (there is no OCR engine here): '' unless given. */
  extractText?: ExtractImageText;
  /** Files per upload (default: the contract's `x-default-limits`). */
  maxFiles?: number;
  /** Bytes per file (default: the contract's `x-default-limits`). */
  maxFileBytes?: number;
  /** How many answered requests each tenant's journal keeps (`controls.requests()`; default 500, 0: none). */
  journalSize?: number;
}

/**
 * Where the mock answers, said once: the service's `baseUrl` (its base_url without `/api/v1`, e.g.
 * `https://docproc.example.com`; in a browser page also relative, e.g. `'/'` for the page's own origin,
 * resolved against `location`), and only requests under it; or `anyOrigin: true`, the contract's paths
 * (`/api/v1/...`, the controls under `/_mock/...`) on every origin, the app's own backend's too. Anything the
 * mock does not answer goes on to MSW's `onUnhandledRequest` (the handlers) or fails as an unreachable host
 * does (the fetch).
 */
export type DocprocMockOrigin = { baseUrl: string; anyOrigin?: false } | { anyOrigin: true; baseUrl?: undefined };

/** Options of the in-process mock (`createDocprocHandlers`, `createDocprocFetch`): where it answers, and its settings. */
export type DocprocMockOptions = DocprocMockSettings & DocprocMockOrigin;

/** The reference service's core in this process, with the memory store: what the MSW handlers and the fetch mock carry. */
export interface InProcessService {
  /** The base the mock answers under, resolved (`baseUrl: '/'` in a page on http://localhost:5173 is `http://localhost:5173/`); undefined with `anyOrigin`. */
  readonly base: string | undefined;
  /** Whether a URL is under `baseUrl` (every URL is with `anyOrigin`). */
  underBase(url: URL): boolean;
  /** The URLs the mock answers, as a RegExp on `origin + pathname` (how MSW matches handlers): the API's and the controls' paths under `baseUrl`, or on any origin with `anyOrigin`. */
  readonly urlPattern: RegExp;
  /** Answers a request under `baseUrl` (a path the API does not own is a 404 problem). */
  serve(request: Request): Promise<Response>;
  controls: DocprocControls;
  /** Resolves once no processing run is waiting or in progress. */
  idle(): Promise<void>;
  /** Stops processing; documents still `processing` stay so. */
  close(): Promise<void>;
}

// The API's own prefixes (see @docproc-kit/reference's api/reference-api.ts): the contract's paths and the mock controls.
const PREFIXES = ['/api/v1', '/_mock'];
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// A page's app names its own origin as '/' (or a path on it): resolved against the page's location, where
// there is one. Where there is none (Node, a worker without a document) a relative base means nothing.
function resolveBaseUrl(baseUrl: string): URL {
  const page = (globalThis as { location?: { href?: string } }).location?.href;
  for (const against of [undefined, page]) {
    try {
      return new URL(baseUrl, against);
    } catch {
      // not absolute, or no page to resolve it against: the next, or the error below
    }
  }
  throw new TypeError(
    `baseUrl '${baseUrl}' is not an absolute URL and there is no page location to resolve it against: ` +
      "pass the service's base_url in full, e.g. baseUrl: 'http://docproc.test' (a relative one such as '/' works only in a browser page)",
  );
}

// The base the mock answers under, or undefined for any origin (asked for in so many words).
function parseOrigin({ baseUrl, anyOrigin }: Partial<DocprocMockOrigin>): { origin: string; path: string } | undefined {
  if (anyOrigin === true && baseUrl === undefined) return undefined;
  if (anyOrigin === true) throw new TypeError('give either baseUrl or anyOrigin: true, not both');
  if (typeof baseUrl !== 'string')
    throw new TypeError(
      "the docproc mock needs baseUrl (the service's base_url, e.g. 'http://docproc.test'), or anyOrigin: true to answer /api/v1 on every origin",
    );
  const url = resolveBaseUrl(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be http(s): ${baseUrl}`);
  if (/\/api\/v1\/?$/.test(url.pathname))
    throw new TypeError(`baseUrl is the service's base_url without /api/v1 (the paths carry it): ${baseUrl}`);
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

function check(name: string, value: number | undefined, min: number, max: number, integer: boolean): void {
  if (value === undefined) return;
  if (!(value >= min && value <= max) || (integer && !Number.isInteger(value)))
    throw new RangeError(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, not ${value}`);
}

/**
 * Builds the reference service's core (createReferenceCore) in this process: the memory store, the local run
 * queue, the keyring (tenants by position), the PDF text-layer extractor, and `fetchApi` in front. Browser-safe.
 * @example const service = createInProcessService({ baseUrl: 'http://docproc.test', processingDelayMs: 0 }); await service.serve(new Request(url));
 */
export function createInProcessService(options: DocprocMockOptions): InProcessService {
  // First, so a call without options (from JavaScript) is told what it misses.
  const base = parseOrigin(options ?? {});
  const keyring = createKeyring(options.apiKeys);
  check('processingDelayMs', options.processingDelayMs, 0, MAX_PROCESSING_DELAY_MS, true);
  check('failureRate', options.failureRate, 0, 1, false);
  check('maxFiles', options.maxFiles, 1, Number.MAX_SAFE_INTEGER, true);
  check('maxFileBytes', options.maxFileBytes, 1, Number.MAX_SAFE_INTEGER, true);
  check('journalSize', options.journalSize, 0, MAX_JOURNAL_SIZE, true);
  const planned = typeof options.seed === 'object' && options.seed !== null ? planSeed(options.seed, keyring) : [];
  const extractor = createTextLayerExtractor({ extractImageText: options.extractText });
  const { handle, processor, store } = createMemoryReference({
    keyring,
    extractor,
    limits: {
      maxFiles: options.maxFiles ?? BUNDLED.uploadLimits.maxFiles,
      maxFileBytes: options.maxFileBytes ?? BUNDLED.uploadLimits.maxFileBytes,
      maxFilenameLength: BUNDLED.maxFilenameLength,
    },
    settings: { processing_delay_ms: options.processingDelayMs ?? DEFAULT_PROCESSING_DELAY_MS, failure_rate: options.failureRate ?? 0 },
    concurrency: DEFAULT_CONCURRENCY,
    runBudgetMs: IN_PROCESS_RUN_BUDGET_MS,
    random: createRandom(typeof options.seed === 'number' ? options.seed : undefined),
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    logger: { info: () => {}, error: (details: unknown, message?: string) => console.error(`docproc mock: ${message}`, details) },
  });

  // The seed is created before anything is answered: every request (and control) waits for it.
  const ready = planned.length > 0 ? applySeed({ store, processor, clock: () => new Date() }, planned) : Promise.resolve();
  const answer = async (request: Request) => {
    await ready;
    return handle(request);
  };

  const prefix = base ? `^${escapeRegExp(base.origin + base.path)}` : '^[a-z][a-z0-9+.-]*://[^/]+';
  const urlPattern = new RegExp(`${prefix}(?:${PREFIXES.map(escapeRegExp).join('|')})(?:/|$)`);

  // The core sees paths from /api/v1 on: a base path in front of them is taken off.
  const serve = async (request: Request): Promise<Response> => {
    if (!base?.path) return answer(request);
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(base.path.length);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return answer(new Request(url, { method: request.method, headers: request.headers, body, signal: request.signal }));
  };

  return {
    base: base && `${base.origin}${base.path}/`,
    underBase: (url) => !base || (url.origin === base.origin && `${url.pathname}/`.startsWith(`${base.path}/`)),
    urlPattern,
    serve,
    controls: createControls((path, init) => answer(new Request(`http://docproc.in-process${path}`, init)), keyring.keys),
    idle: async () => {
      await ready;
      await processor.idle();
    },
    async close() {
      await ready.catch(() => {});
      await processor.stop();
      await extractor.close();
    },
  };
}
