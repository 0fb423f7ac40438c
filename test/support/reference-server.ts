import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { ConnectionCounts } from 'docproc-kit/http/connection-limits.js';
import { type HttpTimeouts, type LingeringLimits, listen, type OnLingerEnd } from 'docproc-kit/http/http-server.js';
import { createReferenceService, type ReferenceService, type ReferenceServiceOptions } from 'docproc-kit/server/service.js';
import { type Logger, pino } from 'pino';

/** Options of {@link startReferenceServer}; every one is optional. */
export interface ReferenceServerOptions extends Partial<Omit<ReferenceServiceOptions, 'logger'>> {
  /** Logger for requests and processing (default: silent). */
  logger?: Logger;
  /** HTTP timeouts (default: those of `docproc serve`). */
  timeouts?: Partial<HttpTimeouts>;
  /** Connections at once (default: that of `docproc serve`). */
  maxConnections?: number;
  /** Connections at once from one address (default: that of `docproc serve`; every test client is 127.0.0.1). */
  maxConnectionsPerAddress?: number;
  /** How long and how much an early-answered connection is read before it closes (default: that of `docproc serve`). */
  lingering?: Partial<LingeringLimits>;
  /** Told how each lingering connection ended. */
  onLingerEnd?: OnLingerEnd;
}

/** A reference server running in this process on 127.0.0.1 (or with no port at all, see {@link startReferenceInProcess}). */
export interface RunningReferenceServer {
  /** e.g. `http://127.0.0.1:38125`; append `/api/v1/...` for the API. */
  baseUrl: string;
  /** Sends a request to this server: over its port, or straight to its API in this process. */
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** The data dir (a temp dir unless one was given); `tmp/` inside it holds upload temp files. */
  dataDir: string;
  /** The accepted API keys (`['docproc-dev-key']` unless `apiKeys` was given). */
  apiKeys: string[];
  /** The service behind it (store, processor, settings), for white-box checks. */
  service: ReferenceService;
  /** What its connection limits did so far (none without a port). */
  connectionCounts(): ConnectionCounts | undefined;
  /**
   * Stops the server and its processing, waits for writes in flight, and removes the data dir if it
   * was a temp dir made here. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Starts the real reference server (real lowdb file, real extraction) on a free port of
 * 127.0.0.1. Defaults suit tests: a temp data dir, a 50 ms processing delay, a silent logger.
 * @example
 * const server = await startReferenceServer();
 * await fetch(`${server.baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': server.apiKeys[0]! } });
 * await server.close();
 */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<RunningReferenceServer> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'docproc-ref-')));
  let service: ReferenceService;
  try {
    service = await createReferenceService({
      processingDelayMs: 50,
      ...options,
      dataDir,
      logger: options.logger ?? pino({ level: 'silent' }),
    });
  } catch (error) {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const http = await listen(service.app, {
    port: 0,
    host: '127.0.0.1',
    timeouts: options.timeouts,
    maxConnections: options.maxConnections,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress,
    lingering: options.lingering,
    onLingerEnd: options.onLingerEnd,
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: http.url,
    fetch: (input, init) => fetch(input, init),
    dataDir,
    apiKeys: service.apiKeys,
    service,
    connectionCounts: http.connections,
    close() {
      closing ??= (async () => {
        await http.close(2_000);
        await service.close();
        if (ownDir) await rm(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/**
 * The reference service in this process with no port and no Express: requests go straight to its API
 * (the service's `fetch`), on the in-memory store unless a data dir is given. For tests of what the API
 * answers, where the port is not the point; the HTTP front has its own tests on a real port.
 * @example const server = await startReferenceInProcess(); await server.fetch(`${server.baseUrl}/api/v1/documents/get_documents`);
 */
export async function startReferenceInProcess(
  options: Omit<ReferenceServerOptions, 'timeouts' | 'maxConnections'> = {},
): Promise<RunningReferenceServer> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'docproc-in-process-')));
  const service = await createReferenceService({
    processingDelayMs: 50,
    store: ownDir ? 'memory' : 'lowdb',
    ...options,
    dataDir,
    logger: options.logger ?? pino({ level: 'silent' }),
  }).catch(async (error: unknown) => {
    if (ownDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: 'http://docproc.in-process',
    fetch: (input, init) => service.fetch(new Request(input, init)),
    dataDir,
    apiKeys: service.apiKeys,
    service,
    connectionCounts: () => undefined,
    close() {
      closing ??= (async () => {
        await service.close();
        if (ownDir) await rm(dataDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/** A response whose status, headers and body were checked against the contract. */
export interface CheckedResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined for HEAD and empty bodies). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the server answered and assert on it
  body: any;
}

/** Extra options of a checked call: the key to send (`null` sends none). */
export type CheckedInit = RequestInit & { apiKey?: string | null };

/**
 * Everything about a response that disagrees with the contract for `operationId`: an undocumented
 * status, the wrong media type, a body that fails the schema, a missing or insane X-Request-Id, a
 * documented required header (such as Allow on a 405) that is absent. Empty when it conforms.
 * @example expect(await contractViolations(contract, 'getDocument', res, body)).toEqual([]);
 */
export function contractViolations(
  contract: Contract,
  operationId: string,
  status: number,
  headers: Headers,
  body: unknown,
  method = 'GET',
): string[] {
  const violations: string[] = [];
  const requestId = headers.get('x-request-id');
  if (!requestId || !/^[\x21-\x7E]{1,200}$/.test(requestId)) violations.push(`X-Request-Id is ${JSON.stringify(requestId)}`);
  const documented = contract.response(operationId, status);
  if (!documented) return [...violations, `${status} is not a documented response of ${operationId}`];
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    if ((header as { required?: boolean }).required && !headers.has(name)) violations.push(`required header ${name} is missing`);
  }
  const [mediaType, media] = Object.entries(documented.content ?? {})[0] ?? [];
  if (!mediaType || method === 'HEAD') return violations;
  const contentType = headers.get('content-type') ?? '';
  if (!contentType.startsWith(mediaType)) violations.push(`Content-Type is ${contentType}, documented ${mediaType}`);
  const check = contract.validate(media!.schema as object, body);
  return [...violations, ...check.errors.map((e) => `body ${e}`)];
}

/**
 * A fetch for one server that checks every response against the contract and throws, listing
 * the violations, when one does not conform. The key defaults to the server's first key.
 * @example const call = contractFetch(server, contract); const { body } = await call('listDocuments', '/api/v1/documents/get_documents');
 */
export function contractFetch(server: Pick<RunningReferenceServer, 'baseUrl' | 'apiKeys' | 'fetch'>, contract: Contract) {
  return async (operationId: string, path: string, init: CheckedInit = {}): Promise<CheckedResponse> => {
    const { apiKey = server.apiKeys[0], ...rest } = init;
    const headers = new Headers(rest.headers);
    if (apiKey !== null && apiKey !== undefined && !headers.has('x-api-key')) headers.set('x-api-key', apiKey);
    const res = await server.fetch(server.baseUrl + path, { ...rest, headers });
    const text = await res.text();
    const body = text === '' ? undefined : (JSON.parse(text) as unknown);
    const violations = contractViolations(contract, operationId, res.status, res.headers, body, rest.method ?? 'GET');
    if (violations.length > 0) {
      throw new Error(
        `${rest.method ?? 'GET'} ${path} -> ${res.status} violates the contract of ${operationId}:\n  ${violations.join('\n  ')}\n${text.slice(0, 500)}`,
      );
    }
    return { status: res.status, headers: res.headers, body };
  };
}

/** The bytes of a file in packages/contract/fixtures/, as a Blob ready for FormData. */
export async function fixture(name: string): Promise<Blob> {
  return new Blob([await readFile(fixturePath(name))]);
}

/** The upload temp files under a data dir's tmp/ (in the scratch folder of each process), by path below tmp/. */
export async function uploadTempFiles(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'tmp'), { recursive: true })).filter((name) => name.endsWith('.part'));
}

/** Polls until `condition` holds or `timeoutMs` passes; resolves to whether it held. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, everyMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return condition();
}
