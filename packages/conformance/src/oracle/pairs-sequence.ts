import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { accepted, coveringRows } from '../inputs/pairwise.js';
import { partitionCatalog } from '../inputs/partition-catalog.js';
import { type Op, plainFile } from './ops.js';

// The oracle's second fixed sequence: two documents (one completes, one fails), their runs ended, then one
// list per row of a covering array of the list's query parameters, so every pair of partitions the contract
// accepts for two of them (`status_filter` × `search` × `page` × `limit`) is sent at least once and each
// answer is compared with the reference core's. Random sequences reach only some pairs in a short run.

/** The upload and wait that give the lists something to find (the first file's text holds a word). */
const SETUP: Op[] = [
  {
    kind: 'upload',
    tenant: 0,
    auth: 'own',
    files: [plainFile('text', 'pairwise'), plainFile('damaged', 'pairwise')],
    count: 'drawn',
    idempotency: null,
    requestId: null,
  },
  { kind: 'wait' },
];

/**
 * The sequence for `contract`: its list's query parameters as the oracle's inputs name them (`param` is
 * the index among them, `partition` the index among the partitions that have a value), one list per row.
 * @example const ops = pairsSequence(contract); // 2 setup steps, then about two dozen lists
 */
export function pairsSequence(contract: Contract): Op[] {
  const catalog = partitionCatalog(contract);
  const params = ((contract.operation('listDocuments')?.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).filter(
    (p) => p.in === 'query',
  );
  const factors = params.map((p) => {
    const partitions = catalog.scalar('listDocuments', `query ${p.name}`)?.partitions ?? [];
    const valued = partitions.filter((q) => q.value !== undefined);
    // Each accepted partition: the index of its value, or absent (the parameter left out).
    return partitions.filter(accepted).map((q) => (q.value === undefined ? undefined : valued.indexOf(q)));
  });
  if (factors.length < 2) return [];
  const lists = coveringRows(factors.map((f) => f.length)).map(
    (row): Op => ({
      kind: 'list',
      tenant: 0,
      auth: 'own',
      params: row.flatMap((level, param) => {
        const partition = factors[param]![level];
        return partition === undefined ? [] : [{ param, value: { partition } }];
      }),
      extra: 'none',
      requestId: null,
    }),
  );
  return [...SETUP, ...lists];
}
