import { pathTemplate } from './path-template.js';
import type { OperationEntry } from './values.js';

/** Finds the operation a request is for, from the contract's paths. */
export interface OperationIndex {
  operationIds: string[];
  /** The operation for this method and concrete path, or undefined. */
  find(method: string, pathname: string): OperationEntry | undefined;
  /** The methods (upper case) the contract defines for this concrete path; empty when the path is unknown. */
  methodsFor(pathname: string): string[];
}

/**
 * Indexes operations by method and path template, synchronously (no validation or dereferencing).
 * @example createOperationIndex(CONTRACT_VALUES.operations).find('GET', '/api/v1/documents/get_document/7')?.operationId; // 'getDocument'
 */
export function createOperationIndex(entries: readonly OperationEntry[]): OperationIndex {
  const operations = entries.map((op) => ({ ...op, matcher: pathTemplate(op.path) }));
  return {
    operationIds: operations.map((op) => op.operationId),
    find: (method, pathname) => {
      const lower = method.toLowerCase();
      return operations.find((op) => op.method === lower && op.matcher.test(pathname));
    },
    methodsFor: (pathname) => operations.filter((op) => op.matcher.test(pathname)).map((op) => op.method.toUpperCase()),
  };
}
