// The Express 5 application: routes, request ids, 404/405 and the last-resort error handler.
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createAuth } from './auth.js';
import { type Catalog, createCatalog, fullView, type Status, summaryView } from './catalog.js';
import { createIdempotency, fingerprintOf } from './idempotency.js';
import { countCodePoints, readInteger } from './integers.js';
import { type FieldError, sendInvalid, sendProblem } from './problems.js';
import { sniffType, startRun } from './processing.js';
import { parseUpload } from './upload-parsing.js';
import { varyAnswers } from './variations.js';

export interface AppOptions {
  apiKeys: string[];
  maxFileBytes: number;
  maxFiles: number;
  /** How long a processing run lasts before its outcome is written (default 20 ms). */
  runMs?: number;
  /** Answers written otherwise than Express does (variations.ts): gzip, chunked, other header spellings. */
  vary?: boolean;
}

const MAX_ID = 9007199254740991;
const STATUSES = new Set(['processing', 'completed', 'failed']);
const BASE = '/api/v1/documents';

function readId(req: Request, res: Response): number | undefined {
  const id = readInteger(String(req.params.document_id), 1, MAX_ID);
  if (id === undefined) {
    sendInvalid(res, [{ in: 'path', name: 'document_id', message: `must be an integer from 1 to ${MAX_ID}` }]);
  }
  return id;
}

function readListQuery(req: Request) {
  const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  const errors: FieldError[] = [];
  const single = (name: string): string | undefined => {
    const all = query.getAll(name);
    if (all.length > 1) errors.push({ in: 'query', name, message: 'must not be repeated' });
    return all[0];
  };
  const pageText = single('page');
  const limitText = single('limit');
  const statusText = single('status_filter');
  const search = single('search');
  const page = pageText === undefined ? 1 : readInteger(pageText, 1, MAX_ID);
  if (page === undefined) errors.push({ in: 'query', name: 'page', message: `must be an integer from 1 to ${MAX_ID}` });
  const limit = limitText === undefined ? 20 : readInteger(limitText, 1, 100);
  if (limit === undefined) errors.push({ in: 'query', name: 'limit', message: 'must be an integer from 1 to 100' });
  if (statusText !== undefined && !STATUSES.has(statusText)) {
    errors.push({ in: 'query', name: 'status_filter', message: 'must be processing, completed or failed' });
  }
  if (search !== undefined) {
    const n = countCodePoints(search);
    if (n < 1 || n > 200) errors.push({ in: 'query', name: 'search', message: 'must be 1 to 200 characters' });
    else if (search.includes('\u0000')) errors.push({ in: 'query', name: 'search', message: 'must not hold NUL' });
  }
  return { errors, page: page ?? 1, limit: limit ?? 20, status: statusText as Status | undefined, search };
}

function allow(methods: string) {
  return (req: Request, res: Response) => {
    res.set('Allow', methods);
    sendProblem(res, 405, 'method_not_allowed', `${req.method} is not supported here; use ${methods}.`);
  };
}

export function createApp(options: AppOptions, catalog: Catalog = createCatalog()) {
  const app = express();
  const idempotency = createIdempotency();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.vary) app.use(varyAnswers);

  app.use((req, res, next) => {
    const sent = req.get('x-request-id');
    res.set('X-Request-Id', sent !== undefined && /^[\x21-\x7E]{1,200}$/.test(sent) ? sent : randomUUID());
    next();
  });
  app.use('/api/v1', createAuth(options.apiKeys));

  app.post(`${BASE}/upload_files`, async (req, res) => {
    const tenant = res.locals.tenant as string;
    const key = req.get('idempotency-key');
    if (key !== undefined && !/^[\x20-\x7E]{1,255}$/.test(key)) {
      req.resume();
      return sendInvalid(res, [{ in: 'header', name: 'Idempotency-Key', message: '1 to 255 printable ASCII characters' }]);
    }
    if (key !== undefined && !idempotency.claim(tenant, key)) {
      req.resume();
      return sendProblem(res, 409, 'idempotency_key_in_use', `An upload with this Idempotency-Key is still in progress; retry shortly.`);
    }
    try {
      const outcome = await parseUpload(req, options);
      if (!outcome.ok) {
        res.set('Connection', 'close');
        return sendProblem(res, outcome.status, outcome.code, outcome.detail, outcome.errors);
      }
      for (const f of outcome.files) {
        if (sniffType(f.bytes) === undefined) {
          return sendProblem(res, 415, 'unsupported_media_type', `"${f.filename}" is not a PDF, JPEG or PNG file.`);
        }
      }
      const fingerprint = fingerprintOf(outcome.files);
      if (key !== undefined) {
        const earlier = idempotency.lookup(tenant, key);
        if (earlier && earlier.fingerprint !== fingerprint) {
          return sendProblem(res, 409, 'idempotency_key_reused', 'This Idempotency-Key was already used for an upload of other files.');
        }
        if (earlier) {
          res.set('Idempotent-Replayed', 'true');
          return res.status(202).json(earlier.body);
        }
      }
      const now = new Date().toISOString();
      const created = outcome.files.map((f) =>
        catalog.add({
          tenant,
          filename: f.filename,
          content_type: sniffType(f.bytes) ?? 'application/pdf',
          size_bytes: f.bytes.length,
          status: 'processing',
          attempts: 1,
          error: null,
          content: null,
          created_at: now,
          updated_at: now,
          processed_at: null,
          bytes: f.bytes,
        }),
      );
      const body = { documents: created.map(fullView) };
      if (key !== undefined) idempotency.remember(tenant, key, fingerprint, body);
      res.status(202).json(body);
      for (const doc of created) startRun(doc, options.runMs);
    } finally {
      if (key !== undefined) idempotency.release(tenant, key);
    }
  });
  app.all(`${BASE}/upload_files`, allow('POST'));

  app.get(`${BASE}/get_documents`, (req, res) => {
    const q = readListQuery(req);
    if (q.errors.length > 0) return sendInvalid(res, q.errors);
    const { items, total, totalPages } = catalog.list(res.locals.tenant as string, q);
    res.json({
      documents: items.map(summaryView),
      pagination: { page: q.page, limit: q.limit, total, total_pages: totalPages },
    });
  });
  app.all(`${BASE}/get_documents`, allow('GET'));

  app.get(`${BASE}/get_document/:document_id`, (req, res) => {
    const id = readId(req, res);
    if (id === undefined) return;
    const doc = catalog.find(res.locals.tenant as string, id);
    if (!doc) return sendProblem(res, 404, 'not_found', `Document ${id} does not exist.`);
    res.json(fullView(doc));
  });
  app.all(`${BASE}/get_document/:document_id`, allow('GET'));

  app.post(`${BASE}/retry_documents/:document_id`, (req, res) => {
    const id = readId(req, res);
    if (id === undefined) return;
    const doc = catalog.find(res.locals.tenant as string, id);
    if (!doc) return sendProblem(res, 404, 'not_found', `Document ${id} does not exist.`);
    if (doc.status === 'processing') {
      return sendProblem(res, 409, 'document_busy', `Document ${id} is already processing; retry after it completes or fails.`);
    }
    const now = new Date().toISOString();
    Object.assign(doc, {
      status: 'processing',
      attempts: doc.attempts + 1,
      content: null,
      error: null,
      processed_at: null,
      updated_at: now,
    });
    res.status(202).json(fullView(doc));
    startRun(doc, options.runMs);
  });
  app.all(`${BASE}/retry_documents/:document_id`, allow('POST'));

  app.use((req, res) => sendProblem(res, 404, 'not_found', `No resource at ${req.path}.`));
  app.use((err: { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return;
    if (err.status === 400) return sendInvalid(res, [{ in: 'path', name: 'document_id', message: 'is not valid' }]);
    sendProblem(res, 500, 'internal_error', 'The server failed to handle this request; quote the request id when reporting it.');
  });
  return app;
}
