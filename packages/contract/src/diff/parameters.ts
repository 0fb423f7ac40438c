/** Parameters (path, query, header): whether a client of BASE still sends what HEAD needs, and HEAD still takes what it sends. */
import { compareExtensions } from './limits.js';
import { type DiffSink, defineRules } from './model.js';
import { isNode, type Node, parameterKey, type Resolve } from './normalise.js';
import type { OperationPair } from './paths.js';
import { compareSchemas } from './schemas.js';

export const PARAMETER_RULES = defineRules({
  newRequiredParameter: {
    id: 'new-required-request-parameter',
    severity: 'breaking',
    description: 'HEAD requires a parameter clients of BASE never send, so their requests are refused.',
    implementer: 'Read the new parameter.',
  },
  newOptionalParameter: {
    id: 'new-optional-request-parameter',
    severity: 'compatible',
    description: 'A new optional parameter: clients of BASE leave it out.',
    implementer: 'Read the new parameter, and behave as before without it.',
  },
  parameterRemoved: {
    id: 'request-parameter-removed',
    severity: 'warning',
    description:
      'HEAD no longer reads a parameter clients of BASE may send: ignored, it no longer does what they meant (a filter, an idempotency key).',
  },
  parameterBecameRequired: {
    id: 'request-parameter-became-required',
    severity: 'breaking',
    description: 'HEAD requires a parameter BASE left optional, so a client of BASE leaving it out is refused.',
  },
  parameterBecameOptional: {
    id: 'request-parameter-became-optional',
    severity: 'compatible',
    description: 'HEAD lets clients leave out a parameter BASE required; clients of BASE still send it.',
    implementer: 'Handle requests without the parameter.',
  },
});

/** A parameter's place in locations: `query.limit`, `header.Idempotency-Key`, `path.document_id`. */
export const parameterLabel = (p: Node) => `${String(p.in)}.${String(p.name)}`;

/**
 * Compares the parameters of a pair of operations. Path parameters pair by position (a rename changes no URL),
 * the others by `in` and name.
 */
export function compareParameters(sink: DiffSink, resolve: { base: Resolve; head: Resolve }, { base, head }: OperationPair): void {
  const pathParams = (ps: Node[]) => ps.filter((p) => p.in === 'path');
  const bPath = pathParams(base.parameters);
  const hPath = pathParams(head.parameters);
  const pairs: Array<[Node | undefined, Node | undefined]> = [];
  // A path parameter is matched by the template slot it fills, in order.
  const slots = (url: string) => [...url.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const hSlots = slots(head.url);
  slots(base.url).forEach((name, i) => {
    const bp = bPath.find((p) => p.name === name);
    const hp = hPath.find((p) => p.name === hSlots[i]);
    if (bp || hp) pairs.push([bp, hp]);
  });
  const others = (ps: Node[]) => new Map(ps.filter((p) => p.in !== 'path').map((p) => [parameterKey(p), p]));
  const bo = others(base.parameters);
  const ho = others(head.parameters);
  for (const [key, p] of bo) pairs.push([p, ho.get(key)]);
  for (const [key, p] of ho) if (!bo.has(key)) pairs.push([undefined, p]);

  for (const [b, h] of pairs) {
    if (!h && b) {
      sink.report(PARAMETER_RULES.parameterRemoved, `${base.label} ${parameterLabel(b)}`);
      continue;
    }
    if (!h) continue;
    const location = `${head.label} ${parameterLabel(h)}`;
    if (!b) {
      sink.report(h.required === true ? PARAMETER_RULES.newRequiredParameter : PARAMETER_RULES.newOptionalParameter, location);
      continue;
    }
    if (b.required !== true && h.required === true) sink.report(PARAMETER_RULES.parameterBecameRequired, location);
    if (b.required === true && h.required !== true) sink.report(PARAMETER_RULES.parameterBecameOptional, location);
    compareSchemas({ sink, base: resolve.base, head: resolve.head, direction: 'request' }, location, schemaOf(b), schemaOf(h));
    compareExtensions(sink, location, b, h);
  }
}

/** A parameter's schema, or the schema of its one media type (`content`), or anything. */
function schemaOf(p: Node): unknown {
  if (p.schema !== undefined) return p.schema;
  const media = isNode(p.content) ? Object.values(p.content)[0] : undefined;
  return isNode(media) ? media.schema : true;
}
