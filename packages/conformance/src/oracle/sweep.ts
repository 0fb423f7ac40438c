import type { Auth, FileSpec, Op } from './ops.js';

// Random draws leave a header's rarer partitions to chance on each operation (a near-miss key on a retry,
// an X-Request-Id past its limit on a read). The sweep sends each of them once per operation, in a fixed
// sequence tried right after the first, so every run, at any budget, reaches them and has the reference
// core judge the answers.

/** The ways of sending the key besides the tenant's own (ops.ts). */
const OTHER_AUTH: readonly Auth[] = ['none', 'unknown', 'near-miss', 'misplaced'];

const TEXT_FILE: FileSpec = {
  content: 'text',
  before: '',
  after: ' sweep',
  length: 'drawn',
  extension: 0,
  word: 'sweep',
  declared: 0,
  star: false,
  misnamed: false,
};

type Variation = { auth: Auth; requestId: null | { edge: number } };

function opOf(kind: 'upload' | 'list' | 'get' | 'retry', { auth, requestId }: Variation): Op {
  if (kind === 'upload') return { kind, tenant: 0, auth, files: [TEXT_FILE], count: 'drawn', idempotency: null, requestId };
  if (kind === 'list') return { kind, tenant: 0, auth, params: [], extra: 'none', requestId };
  return { kind, tenant: 0, auth, doc: { doc: 0, spelling: 0 }, requestId };
}

/**
 * One upload, then every operation with each other way of sending the key, and with each X-Request-Id
 * value the contract's limits give (`requestIdCount` of them, OracleInputs.requestIds) and none.
 * @example sweepSequence(6).length // 1 + 4 * (4 + 7) + 1
 */
export function sweepSequence(requestIdCount: number): Op[] {
  const variations: Variation[] = [
    ...OTHER_AUTH.map((auth) => ({ auth, requestId: null })),
    // Edge `requestIdCount` is no header at all (OracleSequence.requestId).
    ...Array.from({ length: requestIdCount + 1 }, (_, edge) => ({ auth: 'own' as const, requestId: { edge } })),
  ];
  const kinds = ['upload', 'list', 'get', 'retry'] as const;
  return [
    opOf('upload', { auth: 'own', requestId: null }),
    ...kinds.flatMap((kind) => variations.map((v) => opOf(kind, v))),
    { kind: 'wait' },
  ];
}
