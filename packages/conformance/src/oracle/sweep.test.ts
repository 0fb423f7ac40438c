import { describe, expect, it } from 'vitest';
import { sweepSequence } from './sweep.js';

describe('the sweep sequence', () => {
  const ops = sweepSequence(6);
  const of = (kind: string) => ops.filter((op) => op.kind === kind && 'auth' in op);

  it.each(['upload', 'list', 'get', 'retry'])('sends %s with every other way of sending the key', (kind) => {
    expect(new Set(of(kind).map((op) => ('auth' in op ? op.auth : undefined)))).toEqual(
      new Set(['own', 'none', 'unknown', 'near-miss', 'misplaced']),
    );
  });

  it.each(['upload', 'list', 'get', 'retry'])('sends %s with each X-Request-Id the contract gives, and with none', (kind) => {
    const edges = of(kind).flatMap((op) => ('requestId' in op && op.requestId ? [op.requestId.edge] : []));
    expect(new Set(edges)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  });

  it('uploads a document before reading it and waits for it at the end', () => {
    expect(ops[0]).toMatchObject({ kind: 'upload', auth: 'own' });
    expect(ops.at(-1)).toEqual({ kind: 'wait' });
  });
});
