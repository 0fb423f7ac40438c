/**
 * Schemas compared in the direction data flows: a request schema must still accept what BASE accepted (a
 * client of BASE sends it), a response schema must promise no more than BASE did (a client of BASE reads it).
 */
import { canonical } from './canonical.js';
import { type DiffRule, type DiffSink, defineRules } from './model.js';
import { flattenSchema, isNode, type Node, type Resolve, typesOf } from './normalise.js';

/** Which way the data goes: `request`, clients send it; `response`, clients read it. */
export type Direction = 'request' | 'response';

export const SCHEMA_RULES = defineRules({
  requestTypeNarrowed: {
    id: 'request-type-narrowed',
    severity: 'breaking',
    description: 'HEAD no longer accepts a type of value BASE accepted, so a client of BASE sending it is refused.',
  },
  requestTypeWidened: {
    id: 'request-type-widened',
    severity: 'compatible',
    description: 'HEAD accepts every type BASE did and more.',
    implementer: 'Accept the new type of value.',
  },
  responseTypeWidened: {
    id: 'response-type-widened',
    severity: 'breaking',
    description: 'HEAD may answer with a type of value BASE never promised (null, say), which a client of BASE cannot read.',
  },
  responseTypeNarrowed: {
    id: 'response-type-narrowed',
    severity: 'compatible',
    description: 'HEAD answers with fewer types of value than BASE allowed; clients of BASE read every one.',
    implementer: 'Answer only with the types HEAD allows.',
  },
  requestEnumValueRemoved: {
    id: 'request-enum-value-removed',
    severity: 'breaking',
    description: 'HEAD refuses a value BASE accepted, so a client of BASE sending it gets an error.',
  },
  requestEnumValueAdded: {
    id: 'request-enum-value-added',
    severity: 'compatible',
    description: 'HEAD accepts a value more; clients of BASE never send it.',
    implementer: 'Accept the new value.',
  },
  requestEnumSet: {
    id: 'request-enum-set',
    severity: 'breaking',
    description: 'HEAD restricts to a list of values what BASE accepted freely, so a client of BASE may send one it refuses.',
  },
  requestEnumUnset: {
    id: 'request-enum-unset',
    severity: 'compatible',
    description: 'HEAD accepts any value where BASE listed them.',
    implementer: 'Accept any value, not only the listed ones.',
  },
  responseEnumValueAdded: {
    id: 'response-enum-value-added',
    severity: 'warning',
    description: 'HEAD may answer with a value BASE never listed; a client of BASE switching over every listed value fails on it.',
    implementer: 'Answer with the new value where HEAD says so.',
  },
  responseEnumValueRemoved: {
    id: 'response-enum-value-removed',
    severity: 'compatible',
    description: 'HEAD answers with fewer values than BASE listed; clients of BASE know every one.',
    implementer: 'Stop answering with the removed value.',
  },
  responseEnumSet: {
    id: 'response-enum-set',
    severity: 'compatible',
    description: 'HEAD lists the values it answers with where BASE allowed any.',
    implementer: 'Answer only with the listed values.',
  },
  responseEnumUnset: {
    id: 'response-enum-unset',
    severity: 'warning',
    description: 'HEAD may answer with any value where BASE listed them; a client of BASE switching over the list fails on others.',
  },
  requestMaxDecreased: {
    id: 'request-max-decreased',
    severity: 'breaking',
    description: 'HEAD lowers (or sets) an upper bound on what a client sends, so a value BASE accepted can be refused.',
  },
  requestMaxIncreased: {
    id: 'request-max-increased',
    severity: 'compatible',
    description: 'HEAD raises (or drops) an upper bound on what a client sends; every value of BASE stays accepted.',
    implementer: 'Accept values up to the new bound.',
  },
  requestMinIncreased: {
    id: 'request-min-increased',
    severity: 'breaking',
    description: 'HEAD raises (or sets) a lower bound on what a client sends, so a value BASE accepted can be refused.',
  },
  requestMinDecreased: {
    id: 'request-min-decreased',
    severity: 'compatible',
    description: 'HEAD lowers (or drops) a lower bound on what a client sends; every value of BASE stays accepted.',
    implementer: 'Accept values down to the new bound.',
  },
  responseMaxIncreased: {
    id: 'response-max-increased',
    severity: 'warning',
    description:
      'HEAD may answer with a value above the bound BASE promised; a client of BASE that relies on it (a buffer, a validator) fails.',
  },
  responseMaxDecreased: {
    id: 'response-max-decreased',
    severity: 'compatible',
    description: 'HEAD promises a tighter upper bound than BASE; clients of BASE read every value in it.',
    implementer: 'Keep answers within the new bound.',
  },
  responseMinDecreased: {
    id: 'response-min-decreased',
    severity: 'warning',
    description: 'HEAD may answer with a value below the bound BASE promised; a client of BASE that relies on it fails.',
  },
  responseMinIncreased: {
    id: 'response-min-increased',
    severity: 'compatible',
    description: 'HEAD promises a tighter lower bound than BASE; clients of BASE read every value in it.',
    implementer: 'Keep answers within the new bound.',
  },
  requestFormatChanged: {
    id: 'request-format-changed',
    severity: 'breaking',
    description: 'HEAD requires a format (or another one) on what a client sends, so a value BASE accepted can be refused.',
  },
  requestFormatRemoved: {
    id: 'request-format-removed',
    severity: 'compatible',
    description: 'HEAD no longer requires a format on what a client sends.',
    implementer: 'Accept values in any format.',
  },
  responseFormatChanged: {
    id: 'response-format-changed',
    severity: 'warning',
    description: 'HEAD no longer promises the format BASE did (a date-time, say); a client of BASE parsing it fails.',
  },
  responseFormatAdded: {
    id: 'response-format-added',
    severity: 'compatible',
    description: 'HEAD promises a format BASE did not; clients of BASE read the value as before.',
    implementer: 'Answer in the new format.',
  },
  requestPatternAdded: {
    id: 'request-pattern-added',
    severity: 'breaking',
    description: 'HEAD requires a pattern on what a client sends where BASE had none, so a value BASE accepted can be refused.',
  },
  requestPatternChanged: {
    id: 'request-pattern-changed',
    severity: 'warning',
    description: 'HEAD requires another pattern on what a client sends; values BASE accepted may be refused.',
    implementer: 'Accept the values of the new pattern.',
  },
  requestPatternRemoved: {
    id: 'request-pattern-removed',
    severity: 'compatible',
    description: 'HEAD no longer requires a pattern on what a client sends.',
    implementer: 'Accept values of any pattern.',
  },
  responsePatternChanged: {
    id: 'response-pattern-changed',
    severity: 'warning',
    description: 'HEAD no longer promises the pattern BASE did; a client of BASE relying on it may fail.',
  },
  responsePatternAdded: {
    id: 'response-pattern-added',
    severity: 'compatible',
    description: 'HEAD promises a pattern BASE did not.',
    implementer: 'Answer with values of the new pattern.',
  },
  requestDefaultChanged: {
    id: 'request-default-changed',
    severity: 'warning',
    description: 'A client of BASE that leaves the value out gets a different behaviour from HEAD.',
    implementer: 'Use the new default.',
  },
  newRequiredRequestProperty: {
    id: 'new-required-request-property',
    severity: 'breaking',
    description: 'HEAD requires a property clients of BASE never send, so their requests are refused.',
  },
  newOptionalRequestProperty: {
    id: 'new-optional-request-property',
    severity: 'compatible',
    description: 'A new optional property: clients of BASE leave it out.',
    implementer: 'Read the new property.',
  },
  requestPropertyRemoved: {
    id: 'request-property-removed',
    severity: 'warning',
    description:
      'HEAD no longer knows a property clients of BASE may send; a service refusing unknown properties fails them, others ignore it.',
  },
  requestPropertyBecameRequired: {
    id: 'request-property-became-required',
    severity: 'breaking',
    description: 'HEAD requires a property BASE left optional, so a client of BASE leaving it out is refused.',
  },
  requestPropertyBecameOptional: {
    id: 'request-property-became-optional',
    severity: 'compatible',
    description: 'HEAD lets clients leave out a property BASE required; clients of BASE still send it.',
    implementer: 'Handle requests without the property.',
  },
  requestPropertyRenamed: {
    id: 'request-property-renamed',
    severity: 'breaking',
    description: 'HEAD reads a property under another name, so what a client of BASE sends under the old one is lost or refused.',
  },
  responseRequiredPropertyRemoved: {
    id: 'response-required-property-removed',
    severity: 'breaking',
    description: 'HEAD no longer answers with a property BASE always sent, so a client of BASE reading it fails.',
  },
  responseOptionalPropertyRemoved: {
    id: 'response-optional-property-removed',
    severity: 'warning',
    description: 'HEAD no longer answers with a property BASE sent at times; clients of BASE handle its absence, but lose what it said.',
  },
  responsePropertyBecameOptional: {
    id: 'response-property-became-optional',
    severity: 'breaking',
    description: 'HEAD may leave out a property BASE always sent, so a client of BASE reading it fails.',
  },
  responsePropertyBecameRequired: {
    id: 'response-property-became-required',
    severity: 'compatible',
    description: 'HEAD always sends a property BASE sent at times.',
    implementer: 'Always answer with the property.',
  },
  newRequiredResponseProperty: {
    id: 'new-required-response-property',
    severity: 'compatible',
    description: 'HEAD always answers with a new property; clients of BASE ignore it.',
    implementer: 'Answer with the new property.',
  },
  newOptionalResponseProperty: {
    id: 'new-optional-response-property',
    severity: 'compatible',
    description: 'HEAD may answer with a new property; clients of BASE ignore it.',
  },
  responsePropertyRenamed: {
    id: 'response-property-renamed',
    severity: 'breaking',
    description: 'HEAD answers with a property under another name, so a client of BASE reading the old name finds nothing.',
    implementer: 'Answer with the property under its new name.',
  },
  requestBranchRemoved: {
    id: 'request-one-of-branch-removed',
    severity: 'breaking',
    description: 'HEAD accepts fewer alternatives (`oneOf`/`anyOf`) than BASE, so a client of BASE sending the removed one is refused.',
  },
  requestBranchAdded: {
    id: 'request-one-of-branch-added',
    severity: 'compatible',
    description: 'HEAD accepts one alternative more.',
    implementer: 'Accept the new alternative.',
  },
  responseBranchAdded: {
    id: 'response-one-of-branch-added',
    severity: 'breaking',
    description: 'HEAD may answer with an alternative (`oneOf`/`anyOf`) BASE never promised, which a client of BASE cannot read.',
  },
  responseBranchRemoved: {
    id: 'response-one-of-branch-removed',
    severity: 'compatible',
    description: 'HEAD answers with fewer alternatives than BASE promised.',
  },
});

const R = SCHEMA_RULES;
const pick = (direction: Direction, request: DiffRule, response: DiffRule) => (direction === 'request' ? request : response);

/** What one comparison needs: where to report, each side's resolver, and which way the data goes. */
export interface SchemaComparison {
  sink: DiffSink;
  base: Resolve;
  head: Resolve;
  direction: Direction;
}

const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;

/** Whether a schema of `types` accepts a value of type `t` (`number` accepts integers). */
const accepts = (types: Set<string> | undefined, t: string) => !types || types.has(t) || (t === 'integer' && types.has('number'));

function compareTypes(c: SchemaComparison, location: string, base: Node, head: Node): void {
  const b = typesOf(base);
  const h = typesOf(head);
  if (!b && !h) return;
  const lostByHead = b ? [...b].filter((t) => !accepts(h, t)) : [];
  const newInHead = h ? [...h].filter((t) => !accepts(b, t)) : [];
  const unboundedHead = !h && b;
  const unboundedBase = !b && h;
  const base_ = b ? [...b] : undefined;
  const head_ = h ? [...h] : undefined;
  if (c.direction === 'request') {
    if (lostByHead.length > 0 || unboundedBase) c.sink.report(R.requestTypeNarrowed, location, { base: base_, head: head_ });
    else if (newInHead.length > 0 || unboundedHead) c.sink.report(R.requestTypeWidened, location, { base: base_, head: head_ });
  } else if (newInHead.length > 0 || unboundedHead) c.sink.report(R.responseTypeWidened, location, { base: base_, head: head_ });
  else if (lostByHead.length > 0 || unboundedBase) c.sink.report(R.responseTypeNarrowed, location, { base: base_, head: head_ });
}

const enumOf = (s: Node): unknown[] | undefined => (Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined);

function compareEnums(c: SchemaComparison, location: string, base: Node, head: Node): void {
  const b = enumOf(base);
  const h = enumOf(head);
  if (!b && !h) return;
  if (!b || !h) {
    if (!b) c.sink.report(pick(c.direction, R.requestEnumSet, R.responseEnumSet), location, { head: h });
    else c.sink.report(pick(c.direction, R.requestEnumUnset, R.responseEnumUnset), location, { base: b });
    return;
  }
  const key = (v: unknown) => JSON.stringify(v);
  const hs = new Set(h.map(key));
  const bs = new Set(b.map(key));
  for (const v of b.filter((v) => !hs.has(key(v))))
    c.sink.report(pick(c.direction, R.requestEnumValueRemoved, R.responseEnumValueRemoved), location, { base: v });
  for (const v of h.filter((v) => !bs.has(key(v))))
    c.sink.report(pick(c.direction, R.requestEnumValueAdded, R.responseEnumValueAdded), location, { head: v });
}

function compareBounds(c: SchemaComparison, location: string, base: Node, head: Node): void {
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  for (const keyword of UPPER) {
    const b = num(base[keyword]);
    const h = num(head[keyword]);
    if (b === h) continue;
    const lower = h !== undefined && (b === undefined || h < b);
    const where = `${location} ${keyword}`;
    if (c.direction === 'request') c.sink.report(lower ? R.requestMaxDecreased : R.requestMaxIncreased, where, { base: b, head: h });
    else c.sink.report(lower ? R.responseMaxDecreased : R.responseMaxIncreased, where, { base: b, head: h });
  }
  for (const keyword of LOWER) {
    const b = num(base[keyword]);
    const h = num(head[keyword]);
    if (b === h) continue;
    const higher = h !== undefined && (b === undefined || h > b);
    const where = `${location} ${keyword}`;
    if (c.direction === 'request') c.sink.report(higher ? R.requestMinIncreased : R.requestMinDecreased, where, { base: b, head: h });
    else c.sink.report(higher ? R.responseMinIncreased : R.responseMinDecreased, where, { base: b, head: h });
  }
}

function compareStrings(c: SchemaComparison, location: string, base: Node, head: Node): void {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const [bf, hf] = [str(base.format), str(head.format)];
  if (bf !== hf) {
    const where = `${location} format`;
    if (c.direction === 'request')
      c.sink.report(hf === undefined ? R.requestFormatRemoved : R.requestFormatChanged, where, { base: bf, head: hf });
    else c.sink.report(bf === undefined ? R.responseFormatAdded : R.responseFormatChanged, where, { base: bf, head: hf });
  }
  const [bp, hp] = [str(base.pattern), str(head.pattern)];
  if (bp !== hp) {
    const where = `${location} pattern`;
    if (c.direction === 'request')
      c.sink.report(
        bp === undefined ? R.requestPatternAdded : hp === undefined ? R.requestPatternRemoved : R.requestPatternChanged,
        where,
        {
          base: bp,
          head: hp,
        },
      );
    else c.sink.report(bp === undefined ? R.responsePatternAdded : R.responsePatternChanged, where, { base: bp, head: hp });
  }
  if (c.direction === 'request' && JSON.stringify(base.default) !== JSON.stringify(head.default))
    c.sink.report(R.requestDefaultChanged, `${location} default`, { base: base.default, head: head.default });
}

const requiredOf = (s: Node) => new Set(Array.isArray(s.required) ? s.required.map(String) : []);
/** The properties a schema allows: `false` ones are forbidden, so not there. */
const propertiesOf = (s: Node) =>
  new Map(Object.entries(isNode(s.properties) ? s.properties : {}).filter(([, schema]) => schema !== false));

function compareProperties(c: SchemaComparison, location: string, base: Node, head: Node, visit: Visit): void {
  const bp = propertiesOf(base);
  const hp = propertiesOf(head);
  const br = requiredOf(base);
  const hr = requiredOf(head);
  const removed = [...bp.keys()].filter((n) => !hp.has(n));
  const added = [...hp.keys()].filter((n) => !bp.has(n));
  // A property gone under one name and come under another with the same schema is one rename.
  const renamed = new Map<string, string>();
  for (const from of removed) {
    const text = canonical(bp.get(from), c.base);
    const to = added.find((n) => ![...renamed.values()].includes(n) && canonical(hp.get(n), c.head) === text);
    if (to) renamed.set(from, to);
  }
  const req = c.direction === 'request';
  for (const [from, to] of renamed)
    c.sink.report(req ? R.requestPropertyRenamed : R.responsePropertyRenamed, `${location}.${from}`, { base: from, head: to });
  const renamedTo = new Set(renamed.values());
  for (const name of removed.filter((n) => !renamed.has(n))) {
    const rule = req ? R.requestPropertyRemoved : br.has(name) ? R.responseRequiredPropertyRemoved : R.responseOptionalPropertyRemoved;
    c.sink.report(rule, `${location}.${name}`);
  }
  for (const name of added.filter((n) => !renamedTo.has(n))) {
    const required = hr.has(name);
    const rule = req
      ? required
        ? R.newRequiredRequestProperty
        : R.newOptionalRequestProperty
      : required
        ? R.newRequiredResponseProperty
        : R.newOptionalResponseProperty;
    c.sink.report(rule, `${location}.${name}`);
  }
  for (const [name, schema] of bp) {
    const other = hp.get(name);
    if (other === undefined) continue;
    const [wasRequired, isRequired] = [br.has(name), hr.has(name)];
    if (wasRequired && !isRequired)
      c.sink.report(req ? R.requestPropertyBecameOptional : R.responsePropertyBecameOptional, `${location}.${name}`);
    if (!wasRequired && isRequired)
      c.sink.report(req ? R.requestPropertyBecameRequired : R.responsePropertyBecameRequired, `${location}.${name}`);
    visit(`${location}.${name}`, schema, other);
  }
}

function compareBranches(c: SchemaComparison, location: string, base: Node, head: Node, visit: Visit): void {
  for (const key of ['oneOf', 'anyOf'] as const) {
    const b = Array.isArray(base[key]) ? (base[key] as unknown[]) : [];
    const h = Array.isArray(head[key]) ? (head[key] as unknown[]) : [];
    if (b.length === 0 && h.length === 0) continue;
    const bt = b.map((s) => canonical(s, c.base));
    const ht = h.map((s) => canonical(s, c.head));
    const lost = b.filter((_, i) => !ht.includes(bt[i] ?? ''));
    const gained = h.filter((_, i) => !bt.includes(ht[i] ?? ''));
    // As many changed on each side: the same alternatives edited, compared one by one in order.
    if (lost.length === gained.length) {
      for (const [i, s] of lost.entries()) visit(`${location} ${key}[${i}]`, s, gained[i]);
      continue;
    }
    for (const _ of lost) c.sink.report(pick(c.direction, R.requestBranchRemoved, R.responseBranchRemoved), `${location} ${key}`);
    for (const _ of gained) c.sink.report(pick(c.direction, R.requestBranchAdded, R.responseBranchAdded), `${location} ${key}`);
  }
}

type Visit = (location: string, base: unknown, head: unknown) => void;

/**
 * Compares two schemas in a direction and reports every difference under `location` (properties as `.name`,
 * array items as `[]`). Recursive schemas are walked once per pair of schemas.
 * @example compareSchemas({ sink, base, head, direction: 'request' }, 'GET /a query.limit', baseSchema, headSchema)
 */
export function compareSchemas(c: SchemaComparison, location: string, base: unknown, head: unknown): void {
  // The pairs being compared on the way down: met again, they are a recursion, already being compared.
  const ancestors: Array<[unknown, unknown]> = [];
  const visit: Visit = (at, b, h) => {
    const [ib, ih] = [c.base(b), c.head(h)];
    if (typeof ib === 'object' && ancestors.some(([x, y]) => x === ib && y === ih)) return;
    ancestors.push([ib, ih]);
    try {
      compareOne(at, b, h);
    } finally {
      ancestors.pop();
    }
  };
  const compareOne: Visit = (at, b, h) => {
    const fb = flattenSchema(b, c.base);
    const fh = flattenSchema(h, c.head);
    if (typeof fb === 'boolean' || typeof fh === 'boolean') {
      if (fb === fh) return;
      // `false` accepts nothing, `true` anything: the widest and narrowest of types.
      const narrowed = fh === false || fb === true;
      const rule =
        c.direction === 'request'
          ? narrowed
            ? R.requestTypeNarrowed
            : R.requestTypeWidened
          : narrowed
            ? R.responseTypeNarrowed
            : R.responseTypeWidened;
      c.sink.report(rule, at, { base: fb === true || fb === false ? fb : undefined, head: fh === true || fh === false ? fh : undefined });
      return;
    }
    compareTypes(c, at, fb, fh);
    compareEnums(c, at, fb, fh);
    compareBounds(c, at, fb, fh);
    compareStrings(c, at, fb, fh);
    compareProperties(c, at, fb, fh, visit);
    compareBranches(c, at, fb, fh, visit);
    if (fb.items !== undefined || fh.items !== undefined) visit(`${at}[]`, fb.items ?? true, fh.items ?? true);
  };
  visit(location, base, head);
}
