/**
 * The contract's sentences compared place by place (`op:listDocuments`, `param:Limit`, `schema:Document.content`:
 * the places the conformance suite's prose rules name), so a reworded rule is never silent. A component or
 * operation renamed keeps its place: BASE's places are read under HEAD's names.
 */
import { contractSentences } from '../contract-text.js';
import type { ProseChange } from './model.js';
import type { Node, Resolve } from './normalise.js';
import type { OperationPair } from './paths.js';
import { renamedComponents } from './renames.js';

/** The `where` prefix of each component section (contract-text.ts's vocabulary). */
const SECTIONS: Record<string, string> = {
  securitySchemes: 'security',
  parameters: 'param',
  headers: 'header',
  schemas: 'schema',
  responses: 'response',
};

/** BASE's place prefixes (`schema:Document`, `op:listDocuments`) renamed in HEAD: renamed components, and operations whose id changed. */
export function renamedPlaces(
  documents: { base: Node; head: Node },
  resolve: { base: Resolve; head: Resolve },
  pairs: OperationPair[],
): Map<string, string> {
  const renames = new Map<string, string>();
  const prefix = (name: string) => {
    const [section = '', ...rest] = name.split('/');
    return `${SECTIONS[section] ?? section}:${rest.join('/')}`;
  };
  for (const [from, to] of renamedComponents(documents, resolve)) renames.set(prefix(from), prefix(to));
  for (const { base, head } of pairs)
    if (base.operation.operationId !== head.operation.operationId)
      renames.set(`op:${String(base.operation.operationId)}`, `op:${String(head.operation.operationId)}`);
  return renames;
}

/** A place of BASE under HEAD's names. */
function renamePlace(where: string, renames: Map<string, string>): string {
  const [head = '', ...rest] = where.split('.');
  const renamed = renames.get(head);
  return renamed ? [renamed, ...rest].join('.') : where;
}

const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

/** How alike two sentences are: the share of their words they have in common (0 to 1). */
function likeness(a: string, b: string): number {
  const [wa, wb] = [words(a), words(b)];
  const common = [...wa].filter((w) => wb.has(w)).length;
  return common / Math.max(1, new Set([...wa, ...wb]).size);
}

/** The longest common subsequence of two lists of sentences, as index pairs. */
function commonSentences(a: string[], b: string[]): Array<[number, number]> {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (table[i] as number[])[j] =
        a[i] === b[j] ? (table[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(table[i + 1]?.[j] ?? 0, table[i]?.[j + 1] ?? 0);
  const out: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) out.push([i++, j++]);
    else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return out;
}

/** The sentences one place lost and gained: a lost and a gained one alike enough (half their words) are one reworded sentence. */
function diffPlace(location: string, base: string[], head: string[]): ProseChange[] {
  const out: ProseChange[] = [];
  const flush = (lost: string[], gained: string[]) => {
    const left = [...gained];
    for (const sentence of lost) {
      let best = -1;
      let score = 0.5;
      for (const [k, g] of left.entries()) {
        const s = likeness(sentence, g);
        if (s >= score) [best, score] = [k, s];
      }
      if (best >= 0) out.push({ kind: 'changed', location, base: sentence, head: left.splice(best, 1)[0] });
      else out.push({ kind: 'removed', location, base: sentence });
    }
    for (const sentence of left) out.push({ kind: 'added', location, head: sentence });
  };
  let [i, j] = [0, 0];
  for (const [bi, hj] of [...commonSentences(base, head), [base.length, head.length] as [number, number]]) {
    flush(base.slice(i, bi), head.slice(j, hj));
    [i, j] = [bi + 1, hj + 1];
  }
  return out;
}

/**
 * The sentences added, removed and reworded, place by place, in HEAD's order of places (then BASE's places HEAD lost).
 * @example diffProse(documents, new Map()).filter((p) => p.location === 'param:Limit')
 */
export function diffProse(documents: { base: Node; head: Node }, renames: Map<string, string>): ProseChange[] {
  const byPlace = (sentences: Array<{ where: string; sentence: string }>, rename = (w: string) => w) => {
    const out = new Map<string, string[]>();
    for (const { where, sentence } of sentences) {
      const place = rename(where);
      out.set(place, [...(out.get(place) ?? []), sentence]);
    }
    return out;
  };
  const base = byPlace(contractSentences(documents.base), (w) => renamePlace(w, renames));
  const head = byPlace(contractSentences(documents.head));
  const places = [...new Set([...head.keys(), ...base.keys()])];
  return places.flatMap((place) => diffPlace(place, base.get(place) ?? [], head.get(place) ?? []));
}
