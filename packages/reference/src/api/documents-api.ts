import { type ApiRequest, type ApiResponse, jsonResponse, SHUTDOWN_RETRY_AFTER_S } from '../http/exchange.js';
import { ApiError } from '../http/problem.js';
import { refusalError } from '../http/upload/upload-refusal.js';
import type { Processor, RetryResult } from '../processing/processor.js';
import { documentJson, uploadResultJson } from '../serialize.js';
import type { DocumentStore } from '../store/document-store.js';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from '../upload/idempotency.js';
import type { UploadOutcome, UploadService } from '../upload/upload-service.js';
import { parseDocumentId, parseListQuery } from '../validation.js';
import { createPageCache } from './page-cache.js';

/** What the four operations need. */
export interface DocumentsApiDeps {
  store: DocumentStore;
  processor: Processor;
  uploads: UploadService;
}

/** One operation of the contract, answering a request of the caller's tenant. */
export type OperationHandler = (request: ApiRequest, tenant: string) => Promise<ApiResponse>;

const notFound = (id: number) => new ApiError('not_found', `Document ${id} does not exist.`);

// The one place an upload's outcome becomes HTTP (the service returns values).
function answerUpload(outcome: UploadOutcome): ApiResponse {
  switch (outcome.kind) {
    case 'created':
      return jsonResponse(202, uploadResultJson(outcome.documents));
    case 'replayed':
      return jsonResponse(202, uploadResultJson(outcome.documents), { 'Idempotent-Replayed': 'true' });
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
    case 'refused':
      throw refusalError(outcome.refusal);
    case 'abandoned':
      throw new ApiError('service_unavailable', 'The upload was not stored: the server is shutting down. Retry it.', {
        headers: { 'Retry-After': String(SHUTDOWN_RETRY_AFTER_S) },
      });
  }
}

// The one place a retry's outcome becomes HTTP.
function answerRetry(id: number, result: RetryResult): ApiResponse {
  switch (result.kind) {
    case 'started':
      return jsonResponse(202, documentJson(result.record, null));
    case 'busy':
      throw new ApiError('document_busy', `Document ${id} is already processing; retry after it completes or fails.`);
    case 'not_found':
      throw notFound(id);
  }
}

// The last segment of a path (the document id of the two operations that have one), decoded.
function idSegment(path: string): number {
  const raw = path.slice(path.lastIndexOf('/') + 1);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  return parseDocumentId(decoded);
}

/**
 * The four operations of the contract, by operationId: each parses its request (a 400 names what is
 * wrong), asks the store, the upload service or the processor, and answers. Every outcome's answer is
 * decided here, once.
 * @example const operations = createDocumentsApi({ store, processor, uploads }); await operations.listDocuments(request, tenant);
 */
export function createDocumentsApi({ store, processor, uploads }: DocumentsApiDeps): Record<string, OperationHandler> {
  const pageBody = createPageCache();
  return {
    async uploadDocuments(request, tenant) {
      const idempotencyKey = parseIdempotencyKey(request.header(IDEMPOTENCY_HEADER));
      return answerUpload(
        await uploads.upload({ tenant, idempotencyKey, receive: (options) => request.receive(options), signal: request.signal }),
      );
    },
    async listDocuments(request, tenant) {
      const query = parseListQuery(request.query);
      const { documents, total } = await store.list(tenant, query);
      return jsonResponse(200, pageBody(tenant, query, documents, total));
    },
    async getDocument(request, tenant) {
      const id = idSegment(request.path);
      const record = await store.get(tenant, id);
      if (!record) throw notFound(id);
      return jsonResponse(200, documentJson(record, await store.content(record)));
    },
    async retryDocument(request, tenant) {
      const id = idSegment(request.path);
      return answerRetry(id, await processor.retry(tenant, id));
    },
  };
}
