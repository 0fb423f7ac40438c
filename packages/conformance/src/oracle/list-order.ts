import type { Answer } from '../checks/differential.js';
import type { PairRequest } from './pair.js';
import { sendTwin } from './pair.js';
import type { OracleSequence } from './sequence.js';

// Which documents match a list is the reference's to say; their order is each side's own: newest first by
// its own `created_at`, then its own `document_id`. Two stacks that both follow the rule can order one
// upload's documents differently (ids handed out by concurrent inserts, times a microsecond apart), so the
// twin's page is rebuilt in the target's order before the answers are compared.

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An RFC 3339 time as nanoseconds since the epoch, so that times finer than a millisecond keep their order. */
export function instant(value: string): bigint {
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  const ms = Date.parse(value.replace(/\.\d+/, ''));
  return BigInt(ms) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
}

/**
 * The twin's answer to a list with its page made of the twin's matching documents in the target's order
 * (every page of the same filters read from the twin, sorted by the target's `created_at` and id).
 */
export async function inTargetOrder(seq: OracleSequence, request: PairRequest, twin: Answer, limitMax: number): Promise<Answer> {
  const body = twin.body;
  if (twin.status !== 200 || !isObject(body) || !isObject(body.pagination) || !Array.isArray(body.documents)) return twin;
  const { page, limit } = body.pagination as { page: number; limit: number };
  const rest = (request.twin.query ?? '').split('&').filter((p) => p && !/^(page|limit)=/.test(p));
  const all: Array<Record<string, unknown>> = [];
  for (let n = 1; ; n++) {
    const query = [...rest, `page=${n}`, `limit=${limitMax}`].join('&');
    const answer = await sendTwin({ ...request, requestId: null, twin: { ...request.twin, query } }, seq.twin, seq.env.keys);
    const docs = (answer.body as { documents?: unknown[] } | undefined)?.documents;
    if (answer.status !== 200 || !Array.isArray(docs) || !docs.length) break;
    all.push(...(docs as Array<Record<string, unknown>>));
    if (docs.length < limitMax) break;
  }
  const key = (doc: Record<string, unknown>) => seq.docs.find((d) => d.twinId === doc.document_id);
  if (all.some((d) => !key(d)?.targetCreated)) return twin;
  all.sort((a, b) => {
    const x = key(a)!;
    const y = key(b)!;
    const byTime = instant(y.targetCreated!) - instant(x.targetCreated!);
    return byTime !== 0n ? (byTime > 0n ? 1 : -1) : y.targetId - x.targetId;
  });
  return { ...twin, body: { ...body, documents: all.slice((page - 1) * limit, page * limit) } };
}
