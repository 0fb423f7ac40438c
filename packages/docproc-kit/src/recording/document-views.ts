import { BUNDLED_OPERATIONS } from '@docproc-kit/contract/bundled.js';
import type { DocumentError, DocumentStatus } from '@docproc-kit/reference/model.js';

/** A document as one answer showed it: its fields, and its text when the answer carried one. */
export interface DocumentView {
  document_id: number;
  filename: string;
  status: DocumentStatus;
  attempts: number;
  error: DocumentError | null;
  created_at: string;
  updated_at: string;
  /** The extracted text (`null` until a run completes); absent from a list's items, which never carry it. */
  content?: string | null;
}

/** The contract's operations whose answers show documents, and where in the body they are. */
const SHOWN: Record<string, 'documents' | 'document'> = {
  uploadDocuments: 'documents',
  listDocuments: 'documents',
  getDocument: 'document',
  retryDocument: 'document',
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function viewOf(item: unknown): DocumentView | undefined {
  if (!isObject(item)) return undefined;
  const { document_id, filename, status, attempts, error, created_at, updated_at, content } = item;
  if (typeof document_id !== 'number' || typeof filename !== 'string' || typeof status !== 'string') return undefined;
  if (typeof attempts !== 'number' || typeof created_at !== 'string' || typeof updated_at !== 'string') return undefined;
  return {
    document_id,
    filename,
    status: status as DocumentStatus,
    attempts,
    error: isObject(error) ? (error as unknown as DocumentError) : null,
    created_at,
    updated_at,
    ...('content' in item ? { content: typeof content === 'string' ? content : null } : {}),
  };
}

/**
 * The operation of the contract a request is for, found from its path's end, so a deployment's base path
 * (`https://staging.example.com/docproc/api/v1/...`) does not hide it.
 * @example operationOf('GET', '/docproc/api/v1/documents/get_document/7'); // 'getDocument'
 */
export function operationOf(method: string, pathname: string): string | undefined {
  for (let at = 0; at !== -1; at = pathname.indexOf('/', at + 1)) {
    const found = BUNDLED_OPERATIONS.find(method, pathname.slice(at));
    if (found) return found.operationId;
  }
  return undefined;
}

/**
 * The documents a successful answer of the contract shows (an upload's, a list's, a read's, a retry's),
 * or undefined when the answer is not one that shows documents (an error, another path). Read from the
 * parsed body only: whether the answer was valid is the judge's to say.
 * @example documentViews('listDocuments', 200, await res.json()); // [{ document_id: 1, filename: 'a.pdf', ... }]
 */
export function documentViews(operationId: string | undefined, status: number, json: unknown): DocumentView[] | undefined {
  const where = operationId === undefined ? undefined : SHOWN[operationId];
  if (!where || status < 200 || status > 299 || !isObject(json)) return undefined;
  const items = where === 'documents' ? (Array.isArray(json.documents) ? json.documents : []) : [json];
  return items.map(viewOf).filter((view): view is DocumentView => view !== undefined);
}
