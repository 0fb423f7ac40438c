/**
 * A multipart body by its parts: a part is a field a client names, so a field removed or renamed is refused
 * (this contract answers a part under any other name with a `400`), and a file part's media types are what
 * the service takes.
 */
import { canonical } from './canonical.js';
import { type DiffSink, defineRules } from './model.js';
import { flattenSchema, isNode, type Node, type Resolve } from './normalise.js';
import { compareSchemas } from './schemas.js';

export const MULTIPART_RULES = defineRules({
  fieldRemoved: {
    id: 'request-multipart-field-removed',
    severity: 'breaking',
    description: 'HEAD no longer takes a part clients of BASE send, and a multipart service refuses (or drops) a part it does not know.',
  },
  fieldRenamed: {
    id: 'request-multipart-field-renamed',
    severity: 'breaking',
    description: 'HEAD takes the part under another field name, so every part a client of BASE sends is under the wrong one.',
    implementer: 'Read the part under its new field name.',
  },
  newRequiredField: {
    id: 'new-required-multipart-field',
    severity: 'breaking',
    description: 'HEAD requires a part clients of BASE never send.',
    implementer: 'Read the new part.',
  },
  newOptionalField: {
    id: 'new-optional-multipart-field',
    severity: 'compatible',
    description: 'HEAD takes an optional part clients of BASE leave out.',
    implementer: 'Read the new part, and behave as before without it.',
  },
  fieldBecameRequired: {
    id: 'request-multipart-field-became-required',
    severity: 'breaking',
    description: 'HEAD requires a part BASE left optional.',
  },
  fieldBecameOptional: {
    id: 'request-multipart-field-became-optional',
    severity: 'compatible',
    description: 'HEAD lets clients leave out a part BASE required.',
    implementer: 'Handle bodies without the part.',
  },
  partMediaTypeRemoved: {
    id: 'request-multipart-part-media-type-removed',
    severity: 'breaking',
    description: 'HEAD no longer takes a part of a media type BASE took (a file type), so a client of BASE uploading one is refused.',
  },
  partMediaTypeAdded: {
    id: 'request-multipart-part-media-type-added',
    severity: 'compatible',
    description: 'HEAD takes parts of one media type more (a new file type).',
    implementer: 'Accept parts of the new media type.',
  },
});

const R = MULTIPART_RULES;

/** A part's media types (`encoding.<field>.contentType`, a comma-separated list), or undefined when any is taken. */
function partTypes(media: Node, field: string): Set<string> | undefined {
  const encoding = isNode(media.encoding) ? media.encoding[field] : undefined;
  const list = isNode(encoding) && typeof encoding.contentType === 'string' ? encoding.contentType : undefined;
  return list === undefined ? undefined : new Set(list.split(',').map((t) => t.trim().toLowerCase()));
}

/** Compares two `multipart/form-data` media types of a request body, part by part. */
export function compareMultipart(
  sink: DiffSink,
  resolve: { base: Resolve; head: Resolve },
  location: string,
  base: Node,
  head: Node,
): void {
  const b = flattenSchema(base.schema ?? true, resolve.base);
  const h = flattenSchema(head.schema ?? true, resolve.head);
  if (typeof b === 'boolean' || typeof h === 'boolean') {
    compareSchemas({ sink, ...resolve, direction: 'request' }, location, base.schema ?? true, head.schema ?? true);
    return;
  }
  const fields = (s: Node) => new Map(Object.entries(isNode(s.properties) ? s.properties : {}).filter(([, f]) => f !== false));
  const required = (s: Node) => new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const [bf, hf, br, hr] = [fields(b), fields(h), required(b), required(h)];
  const removed = [...bf.keys()].filter((n) => !hf.has(n));
  const added = [...hf.keys()].filter((n) => !bf.has(n));
  const renamed = new Map<string, string>();
  for (const from of removed) {
    const text = canonical(bf.get(from), resolve.base);
    const to = added.find((n) => ![...renamed.values()].includes(n) && canonical(hf.get(n), resolve.head) === text);
    if (to) renamed.set(from, to);
  }
  for (const [from, to] of renamed) sink.report(R.fieldRenamed, `${location} ${from}`, { base: from, head: to });
  for (const name of removed.filter((n) => !renamed.has(n))) sink.report(R.fieldRemoved, `${location} ${name}`);
  const renamedTo = new Set(renamed.values());
  for (const name of added.filter((n) => !renamedTo.has(n)))
    sink.report(hr.has(name) ? R.newRequiredField : R.newOptionalField, `${location} ${name}`);
  const pairs: Array<[string, string]> = [...[...bf.keys()].filter((n) => hf.has(n)).map((n): [string, string] => [n, n]), ...renamed];
  for (const [from, to] of pairs) {
    const at = `${location} ${to}`;
    if (br.has(from) && !hr.has(to)) sink.report(R.fieldBecameOptional, at);
    if (!br.has(from) && hr.has(to)) sink.report(R.fieldBecameRequired, at);
    const [bt, ht] = [partTypes(base, from), partTypes(head, to)];
    for (const type of bt ?? []) if (ht && !ht.has(type)) sink.report(R.partMediaTypeRemoved, `${at} contentType`, { base: type });
    for (const type of ht ?? []) if (bt && !bt.has(type)) sink.report(R.partMediaTypeAdded, `${at} contentType`, { head: type });
    if (bt && !ht) sink.report(R.partMediaTypeAdded, `${at} contentType`, { base: [...bt], head: '*/*' });
    if (!bt && ht) sink.report(R.partMediaTypeRemoved, `${at} contentType`, { base: '*/*', head: [...ht] });
    compareSchemas({ sink, ...resolve, direction: 'request' }, at, bf.get(from), hf.get(to));
  }
}
