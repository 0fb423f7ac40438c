import type { OpenAPIV3_1 } from 'openapi-types';

// Category-partition (Ostrand & Balcer) for one scalar input: the categories a schema implies and their
// partitions, each with a value in it and a way to tell which partitions a sent value falls in. Nothing
// here restates a limit: every boundary is the schema's own number.

/** One partition of one input: a class of values the contract treats alike. */
export interface Partition {
  /** `category: partition`, unique within its input (`value: at maximum`, `spelling: leading zero`). */
  id: string;
  /** What says it: a schema keyword (`schema maximum`) or the id of the prose rule that quotes the sentence. */
  source: string;
  /** A value in it, for a scalar input: what the sequences send to reach it. */
  value?: string;
  /** For a spelling the contract lets be read either way: the plain spelling it may be read as. */
  sameAs?: string;
  /** For a partition no value stands for (a key choice, an upload's shape): which requests of the suite make it. */
  drawnBy?: string;
}

/** The value partitions of a number the contract accepts: its minimum, a value inside its range, its maximum. */
export const IN_RANGE = { min: 'value: at minimum', inside: 'value: inside the range', max: 'value: at maximum' } as const;

/** The accepted values of an integer input, by where they sit in its range (a bound the schema does not state is absent). */
export function rangeValues(input: ScalarInput | undefined): { min?: number; inside?: number; max?: number } {
  const of = (id: string) => {
    const value = input?.partitions.find((p) => p.id === id)?.value;
    return value === undefined ? {} : { [Object.entries(IN_RANGE).find(([, v]) => v === id)![0]]: Number(value) };
  };
  return { ...of(IN_RANGE.min), ...of(IN_RANGE.inside), ...of(IN_RANGE.max) };
}

/** A partition with neither a value nor a request that makes it: reported as a gap, never skipped. */
export const isGap = (p: Partition) => p.value === undefined && p.drawnBy === undefined;

/** One scalar input (a query parameter, a header, a path id) with its partitions and how to classify what was sent. */
export interface ScalarInput {
  /** `query limit`, `header Idempotency-Key`, `path document_id`. */
  input: string;
  location: 'query' | 'header' | 'path';
  name: string;
  partitions: Partition[];
  /** The partitions a request with these values of it falls in (an empty list: it was not sent). */
  classify(values: readonly string[]): string[];
}

type Schema = OpenAPIV3_1.SchemaObject;

/** The rules whose sentences give integers their spellings and query parameters their repetition (rules/prose.ts ids). */
export const SPELLING_RULES = {
  refused: 'params.integer-spelling',
  open: 'params.integer-open-spellings',
  repeated: 'list.validated-not-clamped',
} as const;

const INTEGER_SPELLINGS: Array<{ id: string; source: string; open?: boolean; make: (n: string) => string; test: RegExp }> = [
  { id: 'spelling: empty', source: SPELLING_RULES.refused, make: () => '', test: /^$/ },
  { id: 'spelling: whitespace', source: SPELLING_RULES.refused, make: (n) => ` ${n}`, test: /^\s|\s$/ },
  { id: 'spelling: plus sign', source: SPELLING_RULES.open, open: true, make: (n) => `+${n}`, test: /^\+\d+$/ },
  { id: 'spelling: leading zero', source: SPELLING_RULES.open, open: true, make: (n) => `0${n}`, test: /^-?0\d+$/ },
  { id: 'spelling: exponent', source: SPELLING_RULES.refused, make: (n) => `${n}e0`, test: /^[+-]?\d+(\.\d+)?e[+-]?\d+$/i },
  { id: 'spelling: fraction', source: SPELLING_RULES.refused, make: (n) => `${n}.0`, test: /^[+-]?\d+\.\d+$/ },
  { id: 'spelling: other (hex, other digits)', source: SPELLING_RULES.refused, make: (n) => `0x${BigInt(n).toString(16)}`, test: /(?:)/ },
];

function integerPartitions(
  schema: Schema,
  location: ScalarInput['location'],
): { partitions: Partition[]; classify: (v: string) => string } {
  const min = typeof schema.minimum === 'number' ? BigInt(schema.minimum) : undefined;
  const max = typeof schema.maximum === 'number' ? BigInt(schema.maximum) : undefined;
  const low = min ?? (max !== undefined ? max - 2n : 0n);
  const inside = max === undefined || low + 1n < max ? low + 1n : low;
  const partitions: Partition[] = [];
  if (min !== undefined)
    partitions.push(
      { id: 'value: below minimum', source: 'schema minimum', value: String(min - 1n) },
      { id: IN_RANGE.min, source: 'schema minimum', value: String(min) },
    );
  partitions.push({ id: IN_RANGE.inside, source: 'schema type integer', value: String(inside) });
  if (max !== undefined)
    partitions.push(
      { id: IN_RANGE.max, source: 'schema maximum', value: String(max) },
      { id: 'value: above maximum', source: 'schema maximum', value: String(max + 1n) },
    );
  // An empty path segment is another path (an unknown one), not a spelling of the id.
  for (const s of INTEGER_SPELLINGS.filter((s) => !(location === 'path' && s.id === 'spelling: empty')))
    partitions.push({ id: s.id, source: s.source, value: s.make(String(inside)), ...(s.open ? { sameAs: String(inside) } : {}) });
  const classify = (v: string): string => {
    if (/^-?(?:0|[1-9]\d*)$/.test(v)) {
      const n = BigInt(v);
      if (min !== undefined && n < min) return 'value: below minimum';
      if (max !== undefined && n > max) return 'value: above maximum';
      if (min !== undefined && n === min) return 'value: at minimum';
      if (max !== undefined && n === max) return 'value: at maximum';
      return 'value: inside the range';
    }
    return INTEGER_SPELLINGS.find((s) => s.test.test(v))!.id;
  };
  return { partitions, classify };
}

function enumPartitions(values: string[]): { partitions: Partition[]; classify: (v: string) => string } {
  const first = values[0] ?? '';
  const otherCase = first.toUpperCase() !== first ? first.toUpperCase() : first.toLowerCase();
  const partitions: Partition[] = [
    ...values.map((v) => ({ id: `value: ${v}`, source: 'schema enum', value: v })),
    { id: 'value: another case of a member', source: 'schema enum', ...(otherCase !== first ? { value: otherCase } : {}) },
    { id: 'value: not a member', source: 'schema enum', value: `${first}-not-a-member` },
    { id: 'value: empty', source: 'schema enum', value: '' },
  ];
  const classify = (v: string): string => {
    if (values.includes(v)) return `value: ${v}`;
    if (v === '') return 'value: empty';
    return values.some((m) => m.toLowerCase() === v.toLowerCase()) ? 'value: another case of a member' : 'value: not a member';
  };
  return { partitions, classify };
}

/** Characters tried, in order, for a value outside a pattern that a request can still carry in `location`. */
const PATTERN_PROBES = [' ', '\t', 'é', '\u007f', '\u0000'];

const codePoints = (v: string) => [...v].length;
/** Whether `v` holds a character beyond ASCII. */
export const nonAscii = (v: string) => [...v].some((c) => c.codePointAt(0)! > 0x7f);
const ofLength = (n: number, fill: string, prefix = '') =>
  [...prefix].slice(0, n).join('') + fill.repeat(Math.max(0, n - codePoints(prefix)));

function stringPartitions(
  schema: Schema,
  location: ScalarInput['location'],
  token: string,
): { partitions: Partition[]; classify: (v: string) => string[] } {
  const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const partitions: Partition[] = [];
  if (min !== undefined && min > 0)
    partitions.push(
      { id: 'length: below minimum', source: 'schema minLength', value: ofLength(min - 1, 'k') },
      { id: 'length: at minimum', source: 'schema minLength', value: ofLength(min, 'k', token) },
    );
  partitions.push({ id: 'length: inside the range', source: 'schema type string', value: token });
  if (max !== undefined) {
    partitions.push(
      { id: 'length: at maximum', source: 'schema maxLength', value: ofLength(max, 'k', token) },
      { id: 'length: above maximum', source: 'schema maxLength', value: ofLength(max + 1, 'k', token) },
    );
    // Length counts code points: a header carries only single bytes, so multi-byte text is for the query and path.
    const multi = pattern?.test('é') === false ? undefined : location === 'header' ? undefined : 'é';
    if (multi)
      partitions.push({ id: 'length: at maximum in multi-byte characters', source: 'schema maxLength', value: ofLength(max, multi) });
  }
  if (pattern) {
    const probe = PATTERN_PROBES.find((c) => !pattern.test(`${token}${c}x`) && (location !== 'header' || c !== '\u0000'));
    partitions.push({ id: 'alphabet: outside the pattern', source: 'schema pattern', ...(probe ? { value: `${token}${probe}x` } : {}) });
  }
  const classify = (v: string): string[] => {
    const n = codePoints(v);
    const found: string[] = [];
    if (min !== undefined && n < min) found.push('length: below minimum');
    else if (max !== undefined && n > max) found.push('length: above maximum');
    else if (max !== undefined && n === max) found.push(nonAscii(v) ? 'length: at maximum in multi-byte characters' : 'length: at maximum');
    else if (min !== undefined && n === min) found.push('length: at minimum');
    else found.push('length: inside the range');
    if (pattern && !pattern.test(v) && v !== '') found.push('alphabet: outside the pattern');
    return found;
  };
  return { partitions, classify };
}

/** Extra partitions of one input that only prose states, each with the rule that quotes the sentence. */
export interface ProsePartition extends Partition {
  /** Whether a sent value falls in it. */
  holds(value: string): boolean;
}

/**
 * The partitions of one scalar input from its schema (and the prose partitions written for it).
 * @example scalarInput('query', 'limit', { type: 'integer', minimum: 1, maximum: 100 }, 'tok').partitions.map((p) => p.id)
 */
export function scalarInput(
  location: ScalarInput['location'],
  name: string,
  schema: Schema,
  token: string,
  options: { optional?: boolean; repeatable?: boolean; prose?: readonly ProsePartition[] } = {},
): ScalarInput {
  const derived =
    schema.type === 'integer'
      ? (() => {
          const d = integerPartitions(schema, location);
          return { partitions: d.partitions, classify: (v: string) => [d.classify(v)] };
        })()
      : Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')
        ? (() => {
            const d = enumPartitions(schema.enum as string[]);
            return { partitions: d.partitions, classify: (v: string) => [d.classify(v)] };
          })()
        : stringPartitions(schema, location, token);
  const prose = options.prose ?? [];
  const partitions: Partition[] = [
    ...derived.partitions,
    ...prose.map(({ holds: _, ...p }) => p),
    ...(options.optional ? [{ id: 'presence: absent', source: 'schema required: false', drawnBy: 'any request without it' }] : []),
    ...(options.repeatable
      ? [{ id: 'presence: repeated', source: SPELLING_RULES.repeated, drawnBy: 'a list with a parameter sent twice' }]
      : []),
  ];
  return {
    input: `${location} ${name}`,
    location,
    name,
    partitions,
    classify(values) {
      if (values.length === 0) return options.optional ? ['presence: absent'] : [];
      const found = new Set<string>();
      if (values.length > 1 && options.repeatable) found.add('presence: repeated');
      for (const v of values) {
        for (const id of derived.classify(v)) found.add(id);
        for (const p of prose) if (p.holds(v)) found.add(p.id);
      }
      return [...found];
    },
  };
}
