/** Responses: the statuses a client of BASE handles, the media types it parses, the headers it reads and the schemas it trusts. */
import { type DiffSink, defineRules } from './model.js';
import { isNode, type Node, type Resolve } from './normalise.js';
import type { OperationPair } from './paths.js';
import { contentOf } from './request-body.js';
import { compareSchemas } from './schemas.js';

export const RESPONSE_RULES = defineRules({
  successStatusRemoved: {
    id: 'response-success-status-removed',
    severity: 'breaking',
    description:
      'HEAD no longer answers with a success status BASE promised, so a client of BASE waiting for it takes the new answer for a failure.',
  },
  nonSuccessStatusRemoved: {
    id: 'response-non-success-status-removed',
    severity: 'warning',
    description:
      'HEAD no longer documents an error status BASE did; a client of BASE handling it loses nothing unless the error now comes as another status.',
  },
  successStatusAdded: {
    id: 'response-success-status-added',
    severity: 'warning',
    description:
      'HEAD may answer with a success status BASE never promised; a client of BASE checking for the old one takes it for a failure.',
    implementer: 'Answer with the new status where HEAD says so.',
  },
  nonSuccessStatusAdded: {
    id: 'response-non-success-status-added',
    severity: 'warning',
    description: 'HEAD may answer with an error status BASE never listed; a client of BASE handling only the listed ones misreads it.',
    implementer: 'Answer with the new status where HEAD says so.',
  },
  mediaTypeRemoved: {
    id: 'response-media-type-removed',
    severity: 'breaking',
    description: 'HEAD no longer answers in a media type BASE promised, so a client of BASE parsing it fails.',
  },
  mediaTypeAdded: {
    id: 'response-media-type-added',
    severity: 'compatible',
    description: 'HEAD may also answer in another media type, chosen by what the client accepts.',
    implementer: 'Answer in the new media type when asked.',
  },
  requiredHeaderRemoved: {
    id: 'response-required-header-removed',
    severity: 'breaking',
    description: 'HEAD no longer sends a response header BASE always sent, so a client of BASE reading it fails.',
  },
  optionalHeaderRemoved: {
    id: 'response-optional-header-removed',
    severity: 'warning',
    description: 'HEAD no longer sends a response header BASE sent at times; clients of BASE handle its absence, but lose what it said.',
  },
  headerBecameOptional: {
    id: 'response-header-became-optional',
    severity: 'breaking',
    description: 'HEAD may leave out a response header BASE always sent, so a client of BASE reading it fails.',
  },
  headerBecameRequired: {
    id: 'response-header-became-required',
    severity: 'compatible',
    description: 'HEAD always sends a response header BASE sent at times.',
    implementer: 'Always send the header.',
  },
  newRequiredHeader: {
    id: 'new-required-response-header',
    severity: 'compatible',
    description: 'HEAD always sends a new response header; clients of BASE ignore it.',
    implementer: 'Send the new header.',
  },
  newOptionalHeader: {
    id: 'new-optional-response-header',
    severity: 'compatible',
    description: 'HEAD may send a new response header; clients of BASE ignore it.',
  },
});

const R = RESPONSE_RULES;
const isSuccess = (status: string) => /^[23]/.test(status);

/** The response documented for a status: its own, else its range (`4XX`), else `default`. */
function responseFor(responses: Node, status: string): unknown {
  return responses[status] ?? responses[`${status[0]}XX`] ?? responses[`${status[0]}xx`] ?? responses.default;
}

const headersOf = (response: Node, resolve: Resolve) =>
  new Map(
    Object.entries(isNode(response.headers) ? response.headers : {}).flatMap(([name, raw]) => {
      const header = resolve(raw);
      return isNode(header) && name.toLowerCase() !== 'content-type' ? [[name.toLowerCase(), { name, header }] as const] : [];
    }),
  );

function compareResponse(sink: DiffSink, resolve: { base: Resolve; head: Resolve }, location: string, base: Node, head: Node): void {
  const bh = headersOf(base, resolve.base);
  const hh = headersOf(head, resolve.head);
  for (const [key, { name, header }] of bh)
    if (!hh.has(key))
      sink.report(header.required === true ? R.requiredHeaderRemoved : R.optionalHeaderRemoved, `${location} header.${name}`);
  for (const [key, { name, header }] of hh) {
    const before = bh.get(key);
    const at = `${location} header.${name}`;
    if (!before) {
      sink.report(header.required === true ? R.newRequiredHeader : R.newOptionalHeader, at);
      continue;
    }
    if (before.header.required === true && header.required !== true) sink.report(R.headerBecameOptional, at);
    if (before.header.required !== true && header.required === true) sink.report(R.headerBecameRequired, at);
    compareSchemas({ sink, ...resolve, direction: 'response' }, at, before.header.schema ?? true, header.schema ?? true);
  }
  const bc = contentOf(base);
  const hc = contentOf(head);
  for (const type of bc.keys()) if (!hc.has(type)) sink.report(R.mediaTypeRemoved, `${location} ${type}`);
  for (const type of hc.keys()) if (!bc.has(type)) sink.report(R.mediaTypeAdded, `${location} ${type}`);
  for (const [type, media] of bc) {
    const other = hc.get(type);
    if (other)
      compareSchemas({ sink, ...resolve, direction: 'response' }, `${location} ${type}`, media.schema ?? true, other.schema ?? true);
  }
}

/** Compares the responses of a pair of operations, status by status (a status missing on one side is compared with the range or `default` that covers it). */
export function compareResponses(sink: DiffSink, resolve: { base: Resolve; head: Resolve }, { base, head }: OperationPair): void {
  const br = isNode(base.operation.responses) ? base.operation.responses : {};
  const hr = isNode(head.operation.responses) ? head.operation.responses : {};
  for (const status of Object.keys(br))
    if (!(status in hr) && !isNode(resolve.head(responseFor(hr, status))))
      sink.report(isSuccess(status) ? R.successStatusRemoved : R.nonSuccessStatusRemoved, `${base.label} response ${status}`);
  for (const status of Object.keys(hr))
    if (!(status in br) && !isNode(resolve.base(responseFor(br, status))))
      sink.report(isSuccess(status) ? R.successStatusAdded : R.nonSuccessStatusAdded, `${head.label} response ${status}`);
  for (const status of new Set([...Object.keys(br), ...Object.keys(hr)])) {
    const b = resolve.base(responseFor(br, status));
    const h = resolve.head(responseFor(hr, status));
    if (isNode(b) && isNode(h)) compareResponse(sink, resolve, `${head.label} response ${status}`, b, h);
  }
}
