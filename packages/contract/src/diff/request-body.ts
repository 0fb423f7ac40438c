/** The request body: whether it is required, the media types it may be sent as, and its schema (multipart bodies by their parts). */
import { type DiffSink, defineRules } from './model.js';
import { compareMultipart } from './multipart.js';
import { isNode, type Node, type Resolve } from './normalise.js';
import type { OperationPair } from './paths.js';
import { compareSchemas } from './schemas.js';

export const REQUEST_BODY_RULES = defineRules({
  bodyBecameRequired: {
    id: 'request-body-became-required',
    severity: 'breaking',
    description: 'HEAD requires a body BASE left optional, so a client of BASE sending none is refused.',
  },
  bodyBecameOptional: {
    id: 'request-body-became-optional',
    severity: 'compatible',
    description: 'HEAD lets clients leave out a body BASE required.',
    implementer: 'Handle requests without a body.',
  },
  newRequiredBody: {
    id: 'new-required-request-body',
    severity: 'breaking',
    description: 'HEAD requires a body clients of BASE never send.',
    implementer: 'Read the new body.',
  },
  newOptionalBody: {
    id: 'new-optional-request-body',
    severity: 'compatible',
    description: 'HEAD takes an optional body clients of BASE leave out.',
    implementer: 'Read the new body, and behave as before without it.',
  },
  bodyRemoved: {
    id: 'request-body-removed',
    severity: 'warning',
    description: 'HEAD no longer reads the body clients of BASE send: ignored, it no longer does what they meant; refused, they fail.',
  },
  mediaTypeRemoved: {
    id: 'request-body-media-type-removed',
    severity: 'breaking',
    description: 'HEAD no longer takes the body in a media type BASE took, so a client of BASE sending it is refused.',
  },
  mediaTypeAdded: {
    id: 'request-body-media-type-added',
    severity: 'compatible',
    description: 'HEAD takes the body in one media type more.',
    implementer: 'Accept bodies of the new media type.',
  },
});

const R = REQUEST_BODY_RULES;

/** A media type without parameters and in lower case, as servers match it. */
export const mediaKey = (type: string) => (type.split(';')[0] ?? '').trim().toLowerCase();

/** The content map of a body or response keyed by {@link mediaKey}. */
export const contentOf = (node: Node): Map<string, Node> =>
  new Map(
    Object.entries(isNode(node.content) ? node.content : {}).flatMap(([type, media]) =>
      isNode(media) ? [[mediaKey(type), media] as [string, Node]] : [],
    ),
  );

/** Compares the request bodies of a pair of operations. */
export function compareRequestBody(sink: DiffSink, resolve: { base: Resolve; head: Resolve }, { base, head }: OperationPair): void {
  const b = resolve.base(base.operation.requestBody);
  const h = resolve.head(head.operation.requestBody);
  const location = `${head.label} request`;
  if (!isNode(b) || !isNode(h)) {
    if (isNode(b)) sink.report(R.bodyRemoved, `${base.label} request`);
    else if (isNode(h)) sink.report(h.required === true ? R.newRequiredBody : R.newOptionalBody, location);
    return;
  }
  if (b.required !== true && h.required === true) sink.report(R.bodyBecameRequired, location);
  if (b.required === true && h.required !== true) sink.report(R.bodyBecameOptional, location);
  const bc = contentOf(b);
  const hc = contentOf(h);
  for (const type of bc.keys()) if (!hc.has(type)) sink.report(R.mediaTypeRemoved, `${location} ${type}`);
  for (const type of hc.keys()) if (!bc.has(type)) sink.report(R.mediaTypeAdded, `${location} ${type}`);
  for (const [type, media] of bc) {
    const other = hc.get(type);
    if (!other) continue;
    if (type === 'multipart/form-data') compareMultipart(sink, resolve, `${location} ${type}`, media, other);
    else compareSchemas({ sink, ...resolve, direction: 'request' }, `${location} ${type}`, media.schema ?? true, other.schema ?? true);
  }
}
