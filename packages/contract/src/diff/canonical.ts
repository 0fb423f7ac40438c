/** A schema as one string that ignores how it is written: `$ref`s followed, keys sorted, texts and examples dropped. */
import { isNode, type Resolve } from './normalise.js';

/** Keywords that say nothing a client can fail on. */
const TEXTS = new Set(['description', 'summary', 'title', 'example', 'examples', '$comment', 'externalDocs', 'xml']);

/** Keywords whose value is a map of names (a property called `title` is no text). */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas', 'headers', 'content', 'encoding']);

/**
 * The canonical text of a schema (or any contract node), for telling equal from different: two schemas with the
 * same text accept the same values. Recursion deeper than `depth` (a recursive schema) prints as `…`.
 * @example canonical({ $ref: '#/components/schemas/A' }, resolve) === canonical(inlineA, resolve)
 */
export function canonical(node: unknown, resolve: Resolve, depth = 24, isMap = false): string {
  const at = resolve(node);
  if (depth <= 0) return '…';
  if (Array.isArray(at)) return `[${at.map((v) => canonical(v, resolve, depth - 1)).join(',')}]`;
  if (!isNode(at)) return JSON.stringify(at) ?? 'undefined';
  const keys = Object.keys(at)
    .filter((k) => isMap || !TEXTS.has(k))
    .sort();
  const enumLike = (k: string) => (k === 'enum' || k === 'required') && Array.isArray(at[k]);
  return `{${keys
    .map((k) => {
      const value = enumLike(k) ? [...(at[k] as unknown[])].map((v) => JSON.stringify(v)).sort() : at[k];
      return `${JSON.stringify(k)}:${enumLike(k) ? `[${(value as string[]).join(',')}]` : canonical(value, resolve, depth - 1, MAPS.has(k) && !isMap)}`;
    })
    .join(',')}}`;
}
