import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { DocumentedTarget } from '../definitions/exchange.js';

function pick(responses: OpenAPIV3_1.ResponsesObject | undefined, statuses: string[]): Record<string, OpenAPIV3_1.ResponseObject> {
  const out: Record<string, OpenAPIV3_1.ResponseObject> = {};
  for (const s of statuses) if (responses?.[s]) out[s] = responses[s] as OpenAPIV3_1.ResponseObject;
  return out;
}

/**
 * What the contract documents for `method pathname` (pathname without the base URL): the operation's
 * responses; for a known path with another method its 405 (and 401); for an unknown path the 404 (and 401)
 * the contract's operations document.
 * @example resolveTarget(contract, 'GET', '/api/v1/documents/get_document/7').operationId // 'getDocument'
 */
export function resolveTarget(contract: Contract, method: string, pathname: string): DocumentedTarget {
  const op = contract.match(method, pathname);
  if (op) {
    return {
      kind: 'operation',
      operationId: op.operationId,
      label: `${op.operationId} (${method.toUpperCase()} ${op.path})`,
      coverageKey: op.operationId,
      responses: (op.definition.responses ?? {}) as Record<string, OpenAPIV3_1.ResponseObject>,
    };
  }
  const methods = contract.methodsFor(pathname);
  if (methods.length > 0) {
    const owner = contract.match(methods[0]!, pathname)!;
    return {
      kind: 'wrong-method',
      operationId: owner.operationId,
      label: `${owner.operationId} (${method.toUpperCase()} ${owner.path}: the contract has only ${methods.map((m) => m.toUpperCase()).join(', ')})`,
      coverageKey: owner.operationId,
      responses: pick(owner.definition.responses, ['405', '401']),
    };
  }
  const notFound = contract.operations.find((o) => o.definition.responses?.['404']);
  return {
    kind: 'unknown-path',
    label: `(unknown path) ${method.toUpperCase()} ${pathname}`,
    coverageKey: '(unknown path)',
    responses: pick(notFound?.definition.responses, ['404', '401']),
  };
}

/** The documented response for the exchange's status (exact, then `4XX`, then `default`). */
export function documentedResponse(exchange: { status: number; target: DocumentedTarget }): OpenAPIV3_1.ResponseObject | undefined {
  const r = exchange.target.responses;
  return r[String(exchange.status)] ?? r[`${String(exchange.status)[0]}XX`] ?? r.default;
}
