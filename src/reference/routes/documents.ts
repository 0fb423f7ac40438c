import { type Response, Router } from 'express';
import { SHUTDOWN_RETRY_AFTER_S } from '../../http/drain.js';
import { ApiError, methodNotAllowed } from '../../http/errors.js';
import { requestSignal } from '../../http/request-lifetime.js';
import { createUploadReceiver, rejectionError, type UploadLimits } from '../../http/upload/upload-parser.js';
import { tenantOf } from '../auth.js';
import { type DocumentRecord, toDocument, toSummary } from '../model.js';
import type { Processor } from '../processing/processor.js';
import type { Store } from '../store/store.js';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf } from '../upload/idempotency.js';
import { createUploadService, type UploadOutcome } from '../upload/upload-service.js';
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

// The one place an upload's outcome becomes HTTP (the service returns values; see ApiError).
function sendUpload(res: Response, outcome: UploadOutcome): void {
  switch (outcome.kind) {
    case 'created':
      return void res.status(202).json(uploadResult(outcome.documents));
    case 'replayed':
      return void res.status(202).set('Idempotent-Replayed', 'true').json(uploadResult(outcome.documents));
    case 'key_reused':
      throw new ApiError(
        'idempotency_key_reused',
        `${IDEMPOTENCY_HEADER} ${JSON.stringify(outcome.key)} was already used for an upload of other files.`,
      );
    case 'key_in_use':
      throw new ApiError(
        'idempotency_key_in_use',
        `An upload with ${IDEMPOTENCY_HEADER} ${JSON.stringify(outcome.key)} is still in progress; retry shortly.`,
      );
    case 'rejected':
      throw rejectionError(outcome.rejection);
    case 'abandoned':
      throw new ApiError('service_unavailable', 'The upload was not stored: the server is shutting down. Retry it.', {
        headers: { 'Retry-After': String(SHUTDOWN_RETRY_AFTER_S) },
      });
  }
}

/**
 * The four operations of the contract, mounted under `/api/v1` behind the API-key check.
 * @example api.use(documentRoutes({ store, processor, clock, limits }));
 */
export function documentRoutes({ store, processor, clock, limits }: DocumentRoutesDeps): Router {
  const router = Router();

  const uploads = createUploadService({ store, processor, clock });
  const receive = createUploadReceiver(store.layout.tmpDir, limits);
  router
    .route('/documents/upload_files')
    .post(async (req, res) => {
      const outcome = await uploads.upload({
        tenant: tenantOf(res),
        idempotencyKey: idempotencyKeyOf(req),
        receive: () => receive(req, res),
        signal: requestSignal(req),
      });
      sendUpload(res, outcome);
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
      if (result.kind === 'busy')
        throw new ApiError('document_busy', `Document ${id} is already processing; retry after it completes or fails.`);
      res.status(202).json(toDocument(result.record, null));
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
