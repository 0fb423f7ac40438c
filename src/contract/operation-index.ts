import { BUNDLED_DOCUMENT } from './bundled-document.js';

/** One operation of a contract, by method and path template. */
export interface IndexedOperation {
  operationId: string;
  method: string;
  path: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A path template (`/a/{id}`) as a regular expression matching concrete paths (`/a/7`). */
export const pathTemplateRe = (template: string) =>
  new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );

/**
 * Finds the operation a request is for, synchronously, from the contract's paths (no validation or
 * dereferencing: only ids, methods and templates are read).
 * @example createOperationIndex(parse(yaml)).find('GET', '/api/v1/documents/get_document/7')?.operationId; // 'getDocument'
 */
export function createOperationIndex(document: { paths?: Record<string, unknown> }) {
  const operations: Array<IndexedOperation & { re: RegExp }> = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operationId = (item as Record<string, { operationId?: string } | undefined>)[method]?.operationId;
      if (operationId) operations.push({ operationId, method, path, re: pathTemplateRe(path) });
    }
  }
  return {
    operationIds: operations.map((op) => op.operationId),
    find: (method: string, pathname: string): IndexedOperation | undefined =>
      operations.find((op) => op.method === method.toLowerCase() && op.re.test(pathname)),
  };
}

/** The index of the bundled contract, read once at start-up. */
export const BUNDLED_OPERATIONS = createOperationIndex(BUNDLED_DOCUMENT);
