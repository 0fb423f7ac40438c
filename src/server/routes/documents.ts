import { Router } from 'express';
import { tenantOf } from '../auth.js';
import { ApiError, methodNotAllowed } from '../errors.js';
import { toDocument, toSummary, type DocumentRecord } from '../model.js';
import type { Processor } from '../processing/processor.js';
import type { Store } from '../store.js';
import { earlierUpload, idempotencyGate, rememberUpload } from '../upload/idempotency.js';
import { createUploadParser, type ReceivedFile, type UploadLimits } from '../upload/upload-parser.js';
import { parseDocumentId, parseListQuery } from '../validation.js';

/** What the document routes need. */
export interface DocumentRoutesDeps {
  store: Store;
  processor: Processor;
  clock: () => Date;
  limits: UploadLimits;
}

const uploadResult = (records: DocumentRecord[]) => ({ documents: records.map((r) => toDocument(r, null)) });

const notFound = (id: number) => new ApiError('not_found', `Document ${id} does not exist.`);

/**
 * The four operations of the contract, mounted under `/api/v1` behind the API-key check.
 * @example api.use(documentRoutes({ store, processor, clock, limits }));
 */
export function documentRoutes({ store, processor, clock, limits }: DocumentRoutesDeps): Router {
  const router = Router();

  router
    .route('/documents/upload_files')
    .post(idempotencyGate(), createUploadParser(store.layout.tmpDir, limits), async (_req, res) => {
      const files = res.locals.files as ReceivedFile[];
      const tenant = tenantOf(res);
      const key = res.locals.idempotencyKey as string | undefined;
      const now = clock();
      const replay = key === undefined ? undefined : await earlierUpload(store, { tenant, key, files, now });
      if (replay) return void res.status(202).set('Idempotent-Replayed', 'true').json(uploadResult(replay));
      const records = await store.insert(
        files.map((f) => ({ tenant, filename: f.filename, content_type: f.contentType, size_bytes: f.size, tempPath: f.tempPath })),
        now.toISOString(),
        key === undefined ? undefined : rememberUpload({ key, files, now }),
      );
      processor.submit(records);
      res.status(202).json(uploadResult(records));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/documents/get_documents')
    .get(async (req, res) => {
      const query = parseListQuery(req.query);
      const { documents, total } = await store.list(tenantOf(res), query);
      res.json({
        documents: documents.map(toSummary),
        pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
      });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/documents/get_document/:document_id')
    .get(async (req, res) => {
      const id = parseDocumentId(req.params.document_id!);
      const record = store.get(tenantOf(res), id);
      if (!record) throw notFound(id);
      res.json(toDocument(record, await store.content(record)));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/documents/retry_documents/:document_id')
    .post(async (req, res) => {
      const id = parseDocumentId(req.params.document_id!);
      const result = await processor.retry(tenantOf(res), id);
      if (result.kind === 'not_found') throw notFound(id);
      if (result.kind === 'busy') throw new ApiError('document_busy', `Document ${id} is already processing; retry after it completes or fails.`);
      res.status(202).json(toDocument(result.record, null));
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
