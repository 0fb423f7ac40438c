/**
 * The contract diff: two parsed OpenAPI documents compared as a client and an implementation see them.
 * `diffContracts(base, head)` classifies every difference (see {@link DIFF_RULES}); `$ref` refactors and
 * formatting change nothing.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { compareExtensions } from './limits.js';
import { type ContractDiff, createDiffSink } from './model.js';
import { checkReferences, createResolver, isNode, operationsOf } from './normalise.js';
import { compareParameters } from './parameters.js';
import { pairOperations } from './paths.js';
import { diffProse, renamedPlaces } from './prose.js';
import { compareRequestBody } from './request-body.js';
import { compareResponses } from './responses.js';
import { compareSecurity } from './security.js';

export type { Change, ContractDiff, DiffRule, ImplementerChange, ProseChange, Severity } from './model.js';
export { DIFF_RULES, RULE_AREAS } from './rules.js';

/** An OpenAPI document as parsed from its YAML or JSON (3.1, or 3.0 as far as they agree), `$ref`s resolved or not. */
export type OpenAPIObject = OpenAPIV3_1.Document | Record<string, unknown>;

/**
 * Compares BASE and HEAD. Throws (an Error saying why) when either is not an object, or a `$ref` of either
 * points nowhere, outside it, or at itself.
 * @example diffContracts(base, head).changes.filter((c) => c.severity === 'breaking')
 */
export function diffContracts(base: OpenAPIObject, head: OpenAPIObject): ContractDiff {
  if (!isNode(base) || !isNode(head)) throw new Error('a contract must be an object (a parsed OpenAPI document)');
  checkReferences(base, 'BASE');
  checkReferences(head, 'HEAD');
  const documents = { base, head };
  const resolve = { base: createResolver(base), head: createResolver(head) };
  const sink = createDiffSink();
  compareExtensions(sink, 'document', base, head);
  const pairs = pairOperations(sink, operationsOf(base, resolve.base), operationsOf(head, resolve.head));
  for (const pair of pairs) {
    compareExtensions(sink, pair.head.label, pair.base.operation, pair.head.operation);
    compareSecurity(sink, documents, resolve, pair);
    compareParameters(sink, resolve, pair);
    compareRequestBody(sink, resolve, pair);
    compareResponses(sink, resolve, pair);
  }
  const prose = diffProse(documents, renamedPlaces(documents, resolve, pairs));
  return { changes: sink.changes, implementers: sink.implementers, prose };
}
