/** Operations and the base path: what URL and method a client of BASE calls, and whether HEAD still answers it. */
import { type DiffSink, defineRules } from './model.js';
import type { Operation } from './normalise.js';

export const PATH_RULES = defineRules({
  operationRemoved: {
    id: 'api-operation-removed',
    severity: 'breaking',
    description: 'HEAD no longer has this method on this path, so every call a client of BASE makes to it fails.',
  },
  operationAdded: {
    id: 'api-operation-added',
    severity: 'compatible',
    description: 'A new operation: clients of BASE never call it.',
    implementer: 'Implement the new operation.',
  },
  basePathChanged: {
    id: 'api-base-path-changed',
    severity: 'breaking',
    description: 'Every operation moved under another base path (a new version prefix), so every URL a client of BASE calls is gone.',
    implementer: 'Serve every operation under the new base path.',
  },
  operationIdChanged: {
    id: 'api-operation-id-changed',
    severity: 'compatible',
    description:
      'The wire is unchanged, but code generated from the contract names the operation differently (a source change for typed clients, not a failure of a running one).',
  },
});

/** The leading path segments every operation's URL shares (`/api/v1` for this contract). */
function commonPrefix(operations: Operation[]): string {
  const split = operations.map((op) => op.url.split('/').filter(Boolean));
  if (split.length === 0) return '';
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && !first[n]?.startsWith('{') && split.every((s) => s.length > n + 1 && s[n] === first[n])) n++;
  return first.slice(0, n).length ? `/${first.slice(0, n).join('/')}` : '';
}

/** An operation pair found in both documents. */
export interface OperationPair {
  base: Operation;
  head: Operation;
}

/**
 * Pairs BASE's operations with HEAD's by method and URL (parameter names ignored), reporting those only one
 * side has. When every operation moved from one shared prefix to another, that is one base-path change and
 * the operations are paired under the new prefix.
 */
export function pairOperations(sink: DiffSink, base: Operation[], head: Operation[]): OperationPair[] {
  const headByKey = new Map(head.map((op) => [op.key, op]));
  let rekey = (op: Operation) => op.key;
  if (base.length > 0 && base.every((op) => !headByKey.has(op.key))) {
    const from = commonPrefix(base);
    const to = commonPrefix(head);
    if (from !== to && base.some((op) => headByKey.has(op.key.replace(` ${from}`, ` ${to}`)))) {
      sink.report(PATH_RULES.basePathChanged, 'servers/paths', { base: from || '/', head: to || '/' });
      rekey = (op) => op.key.replace(` ${from}`, ` ${to}`);
    }
  }
  const pairs: OperationPair[] = [];
  const matched = new Set<Operation>();
  for (const op of base) {
    const other = headByKey.get(rekey(op));
    if (!other) {
      sink.report(PATH_RULES.operationRemoved, op.label);
      continue;
    }
    matched.add(other);
    pairs.push({ base: op, head: other });
    if (op.operation.operationId !== other.operation.operationId)
      sink.report(PATH_RULES.operationIdChanged, other.label, { base: op.operation.operationId, head: other.operation.operationId });
  }
  for (const op of head) if (!matched.has(op)) sink.report(PATH_RULES.operationAdded, op.label);
  return pairs;
}
