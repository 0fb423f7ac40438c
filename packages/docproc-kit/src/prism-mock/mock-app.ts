import { pathTemplate } from '@docproc-kit/contract/path-template.js';
import { UPLOAD_PATH } from '@docproc-kit/contract/upload-limits.js';
import { ApiError, invalidRequest } from '@docproc-kit/reference/http/problem.js';
import { refusalError } from '@docproc-kit/reference/http/upload/upload-refusal.js';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { referenceRoutes } from '../http/docs/docs-routes.js';
import { errorHandler } from '../http/errors.js';
import { createFront, createHttpApp } from '../http/http-front.js';
import { createUploadReceiver } from '../http/upload/multipart-receiver.js';
import { invalidRequestBody } from './invalid-request.js';
import { placeholderUpload } from './placeholder-upload.js';
import type { PrismAnswer, PrismEngine, PrismRequest } from './prism-engine.js';

/** What the mock's HTTP front is wired from. */
export interface MockAppDeps {
  engine: PrismEngine;
  /** Where uploads would be kept: the mock keeps nothing, it only reads and judges each upload. */
  tmpDir: string;
  logger: Logger;
  /** The contract file served at /openapi.json and /docs; none when the contract is a URL. */
  specPath?: string;
}

// Prism's own violation report, as its server sends it, cut below common header size limits.
const MAX_VIOLATIONS_HEADER = 8 * 1024 - 100;
// Framing is Express's job. Prism also shows every optional header that has an example, but
// `Idempotent-Replayed: true` would tell a client its upload was a replay, which a mock never does.
const DROPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'idempotent-replayed']);

// Prism accepts any non-empty key; checked here for uploads so a keyless upload is refused before
// its body is read, as the contract says (401 before anything else).
const requireAnyApiKey: RequestHandler = (req, _res, next) => {
  if (!req.get('x-api-key')) throw new ApiError('unauthorized');
  next();
};

function flatHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    // Accept is left out: the mock answers the documented media type whatever a client prefers, like
    // the reference server, instead of Prism's 406 for an Accept it cannot satisfy.
    if (value === undefined || name === 'accept') continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function queryOf(req: Request): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  const params = new URL(req.originalUrl, 'http://mock').searchParams;
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

function bodyOf(req: Request): unknown {
  if (!Buffer.isBuffer(req.body) || req.body.length === 0) return null;
  const text = req.body.toString('utf8');
  if (req.is(['application/json', 'application/*+json'])) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Turns Prism's own refusals into the contract's problems. */
function prismRefusalError(answer: Extract<PrismAnswer, { kind: 'refusal' }>, req: Request, engine: PrismEngine): ApiError {
  const where = `${req.method} ${req.path}`;
  switch (answer.status) {
    case 401:
      return new ApiError('unauthorized');
    case 404:
      return new ApiError('not_found', `Nothing exists at ${where}.`);
    case 405: {
      const allowed = engine.operations.filter((op) => pathTemplate(op.path).test(req.path)).map((op) => op.method.toUpperCase());
      return new ApiError('method_not_allowed', `${req.method} is not supported here; use ${allowed[0] ?? 'another method'}.`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    case 422:
      // Only a `Prefer` header (or `__code`, `__example`...) Prism cannot read gets here.
      return invalidRequest(
        [{ in: 'header', name: 'prefer', message: answer.detail }],
        `The mock cannot follow this request's preferences: ${answer.detail}`,
      );
    default:
      return new ApiError('internal_error', `The mock could not answer ${where}: ${answer.title}.`);
  }
}

function send(res: Response, req: Request, answer: Extract<PrismAnswer, { kind: 'response' }>, engine: PrismEngine): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) {
    if (!DROPPED_HEADERS.has(name.toLowerCase())) res.setHeader(name, value);
  }
  // Prism fills X-Request-Id from the contract's example; the real one identifies this request.
  res.setHeader('X-Request-Id', req.id);
  if (answer.violations.length) res.setHeader('sl-violations', JSON.stringify(answer.violations).slice(0, MAX_VIOLATIONS_HEADER));
  // A 400 Prism chose because the request is invalid names what Prism found, not the example's parameter.
  const body =
    answer.status === 400 && answer.invalid.length > 0 ? invalidRequestBody(answer.body, answer.invalid, engine.operations) : answer.body;
  if (body === undefined || body === null) {
    res.end();
    return;
  }
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  // A Buffer, so Express leaves the content type exactly as the contract gives it.
  res.send(Buffer.from(payload, 'utf8'));
}

function answerWith(
  engine: PrismEngine,
  logger: Logger,
  body: (req: Request, res: Response) => Promise<Pick<PrismRequest, 'body' | 'headers'>>,
): RequestHandler {
  return async (req, res) => {
    const query = queryOf(req);
    const server = query.__server;
    const request: PrismRequest = {
      method: req.method.toLowerCase() as PrismRequest['method'],
      url: { path: req.path, query, ...(typeof server === 'string' ? { baseUrl: server } : {}) },
      ...(await body(req, res)),
    };
    const answer = await engine.answer(request);
    if (answer.kind === 'refusal') {
      if (answer.status >= 500) logger.error({ requestId: req.id, refusal: answer }, 'Prism could not answer');
      throw prismRefusalError(answer, req, engine);
    }
    send(res, req, answer, engine);
  };
}

/**
 * The mock's HTTP front: request ids, logging and CORS as in the reference server; uploads parsed
 * and judged by the reference server's own multipart parser (limits, field names, file types by
 * their bytes) so no body can upset Prism; then Prism's engine answers from the contract (examples,
 * `--dynamic`, request validation). Every error is a contract problem. It does not listen.
 * @example const app = createMockApp({ engine, tmpDir, logger }); await listen(app, { port: 4011, host });
 */
export function createMockApp({ engine, tmpDir, logger, specPath }: MockAppDeps): Express {
  // Prism's per-request choices (Prefer) and its violations header are part of the mock's interface.
  const app = createHttpApp(
    createFront({ logger, corsOrigins: ['*'], extraAllowedHeaders: ['prefer'], extraExposedHeaders: ['sl-violations'] }),
  );
  const receive = createUploadReceiver(tmpDir, engine.uploadLimits);
  app.post(
    UPLOAD_PATH,
    requireAnyApiKey,
    // Read and judged by the reference server's own receiver, its bytes dropped as they arrive (the mock
    // stores nothing); Prism then sees a placeholder body it can always parse.
    answerWith(engine, logger, async (req, res) => {
      const received = await receive(req, res, { keep: false });
      if (received.kind === 'refused') throw refusalError(received.refusal);
      const { body, contentType } = placeholderUpload(received.files);
      return { body, headers: { ...flatHeaders(req), 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) } };
    }),
  );
  if (specPath) app.use(referenceRoutes({ specPath, prefillApiKey: 'any-key-works-with-the-mock' }));
  app.use(
    express.raw({ type: () => true, limit: '1mb' }),
    answerWith(engine, logger, async (req) => ({ body: bodyOf(req), headers: flatHeaders(req) })),
  );
  app.use(errorHandler(logger));
  return app;
}
