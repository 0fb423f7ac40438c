import type { OpenAPIV3_1 } from 'openapi-types';
import type { Contract } from '../../src/contract/contract.js';
import type { Profile } from './define.js';

/**
 * The boundary cases of every constraint the contract states on a request: read from the document the run
 * judges against, so a limit changed in the contract changes the cases with no code change. One rule per
 * (parameter, keyword), each a check of its own (`boundary.<parameter>-<rule>`).
 *
 * Integers travel as text. The contract's `type: integer` is read as the plain decimal spelling of one
 * (RFC 8259's `int`: an optional minus, ASCII digits, no leading zero): a sign, spaces, underscores,
 * an exponent, hex, a fraction, a leading zero, other digits or nothing at all are refused, though
 * lenient parsers (`Number()`, `int()`, `strtol`, coercing validators) read a number in them. Lengths are
 * counted in code points, as JSON Schema counts them.
 */

/** Where a constrained value travels. */
export type BoundaryLocation = 'query' | 'path' | 'header' | 'filename';

/** One request of a boundary rule: a value and whether the contract accepts it. */
export interface BoundaryCase {
  /** Names the case in the test name and failures: `limit=101 (one past the maximum)`. */
  label: string;
  /** The value exactly (not encoded): the suite percent-encodes query and path values, sends headers as they are. */
  value: string;
  /** `accept`: the request is not refused for this value; `refuse`: a 400. */
  expect: 'accept' | 'refuse';
  /** The least profile that sends it: spellings a coercing mock cannot tell apart are `full`. */
  profile: Profile;
  /** Set when an accepted value may name something that exists: never sent to an operation that changes state. */
  mayNameDocument?: boolean;
}

/** One constraint and its cases. */
export interface BoundaryRule {
  /** `boundary.limit-maximum`. */
  checkId: string;
  /** The contract rules it tests (rules/schema-rules.ts ids). */
  ruleIds: string[];
  description: string;
  location: BoundaryLocation;
  /** The parameter's (or multipart field's) name. */
  name: string;
  /** The operations that take it. */
  operations: string[];
  cases: BoundaryCase[];
}

type Schema = OpenAPIV3_1.SchemaObject & { maximum?: number; minimum?: number };

const kebab = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const FULLWIDTH = '０１２３４５６７８９';
/** A character of 2 UTF-8 bytes and one of 4 (2 UTF-16 units): servers counting bytes or UTF-16 units miscount both. */
const MULTI_BYTE = [
  { char: 'é', what: '2-byte' },
  { char: '😀', what: '4-byte' },
];
/** Characters that test a pattern: each is inside or outside it, decided by the pattern itself. */
const PATTERN_PROBES = ['~', ' ', '!', '\t', '\u00a0', 'é', 'ÿ', '😀'];

/** Every spelling of `value` that lenient parsers read as `value` and the plain decimal form refuses. */
export function lenientSpellings(value: bigint): Array<{ spelling: string; what: string }> {
  const digits = (value < 0n ? -value : value).toString();
  const sign = value < 0n ? '-' : '';
  const exponent = (() => {
    const trimmed = digits.replace(/0+$/, '');
    const mantissa = trimmed.length > 1 ? `${trimmed[0]}.${trimmed.slice(1)}` : trimmed;
    return `${sign}${mantissa}e${digits.length - 1}`;
  })();
  const out = [
    { spelling: `+${digits}`, what: 'a plus sign' },
    { spelling: ` ${sign}${digits}`, what: 'a leading space' },
    { spelling: `${sign}${digits} `, what: 'a trailing space' },
    { spelling: `${sign}0${digits}`, what: 'a leading zero' },
    { spelling: `${sign}${digits}.0`, what: 'a fraction of zero' },
    { spelling: exponent, what: 'an exponent' },
    { spelling: `${sign}0x${(value < 0n ? -value : value).toString(16)}`, what: 'hex' },
    { spelling: `${sign}${[...digits].map((d) => ARABIC_INDIC[Number(d)]).join('')}`, what: 'Arabic-Indic digits' },
    { spelling: `${sign}${[...digits].map((d) => FULLWIDTH[Number(d)]).join('')}`, what: 'full-width digits' },
  ];
  if (digits.length > 1) out.push({ spelling: `${sign}${digits[0]}_${digits.slice(1)}`, what: 'an underscore' });
  if (value === 0n) out.push({ spelling: '-0', what: 'minus zero' });
  return out;
}

function integerRules(name: string, location: BoundaryLocation, operations: string[], schema: Schema, key: string): BoundaryRule[] {
  const rules: BoundaryRule[] = [];
  const id = (rule: string) => `boundary.${kebab(name)}-${rule}`;
  const min = typeof schema.minimum === 'number' ? BigInt(schema.minimum) : undefined;
  const max = typeof schema.maximum === 'number' ? BigInt(schema.maximum) : undefined;
  const int64 = schema.format === 'int64';
  if (min !== undefined)
    rules.push({
      checkId: id('minimum'),
      ruleIds: [`${key}.minimum`],
      description: `\`${name}\` at its minimum (${min}) is accepted; one below it (${min - 1n}) is a 400.`,
      location,
      name,
      operations,
      cases: [
        {
          label: `${name}=${min} (the minimum)`,
          value: String(min),
          expect: 'accept',
          profile: 'contract',
          mayNameDocument: location === 'path',
        },
        { label: `${name}=${min - 1n} (one below the minimum)`, value: String(min - 1n), expect: 'refuse', profile: 'contract' },
      ],
    });
  if (max !== undefined || int64) {
    const cases: BoundaryCase[] = [];
    if (max !== undefined)
      cases.push(
        { label: `${name}=${max} (the maximum)`, value: String(max), expect: 'accept', profile: 'contract' },
        {
          label: `${name}=${max + 1n} (one past the maximum, never clamped)`,
          value: String(max + 1n),
          expect: 'refuse',
          profile: 'contract',
        },
      );
    if (int64 && (max === undefined || max + 1n < 2n ** 63n))
      cases.push({ label: `${name}=${2n ** 63n} (one past int64)`, value: String(2n ** 63n), expect: 'refuse', profile: 'contract' });
    rules.push({
      checkId: id('maximum'),
      ruleIds: [...(max !== undefined ? [`${key}.maximum`] : []), ...(int64 ? [`${key}.format`] : [])],
      description:
        max !== undefined
          ? `\`${name}\` at its maximum (${max}) is accepted; one past it (${max + 1n})${int64 && max + 1n < 2n ** 63n ? ' and one past int64' : ''} is a 400, never clamped.`
          : `\`${name}\` one past int64 is a 400.`,
      location,
      name,
      operations,
      cases,
    });
  }
  // A value whose lenient readings are valid: on a path, the largest (no document has it, so a wrongly
  // accepted spelling changes nothing); in a query, a two-digit one where the range allows.
  const lo = min ?? 0n;
  const hi = max ?? 2n ** 53n - 1n;
  const base = location === 'path' ? hi : 10n < lo ? lo : 10n > hi ? hi : 10n;
  rules.push({
    checkId: id('integer'),
    ruleIds: [`${key}.type`],
    description: `\`${name}\` is a plain decimal integer: the same number spelled with a sign, spaces, a leading zero, a fraction, an exponent, hex, underscores or other digits, or nothing at all, is a 400 (lenient parsers read a number in each).`,
    location,
    name,
    operations,
    cases: [
      { label: `${name}=${base} (plain)`, value: String(base), expect: 'accept', profile: 'contract' },
      ...lenientSpellings(base).map(({ spelling, what }) => ({
        label: `${name}=${JSON.stringify(spelling)} (${base} with ${what})`,
        value: spelling,
        expect: 'refuse' as const,
        profile: 'full' as const,
      })),
      { label: `${name} empty`, value: '', expect: 'refuse', profile: 'full' },
    ],
  });
  return rules;
}

/** `count` characters: `prefix`, then `fill` repeated (code points). */
function ofLength(count: number, fill: string, prefix = ''): string {
  const head = [...prefix].slice(0, count);
  return head.join('') + fill.repeat(Math.max(0, count - head.length));
}

function stringRules(
  name: string,
  location: BoundaryLocation,
  operations: string[],
  schema: Schema,
  key: string,
  prefix: string,
): BoundaryRule[] {
  const rules: BoundaryRule[] = [];
  const id = (rule: string) => `boundary.${kebab(name)}-${rule}`;
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const fits = (value: string) => !pattern || pattern.test(value);
  const transmissible = (c: string) => location !== 'header' || (c.codePointAt(0)! <= 0xff && c !== '\u007f');
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    const n = schema.minLength;
    rules.push({
      checkId: id('min-length'),
      ruleIds: [`${key}.minLength`],
      description: `\`${name}\` of ${n} character${n === 1 ? '' : 's'} (its minLength) is accepted; ${n - 1 === 0 ? 'an empty one' : `${n - 1}`} is a 400.`,
      location,
      name,
      operations,
      cases: [
        {
          label: `${name} of ${n} character(s) (the minLength)`,
          value: ofLength(n, 'k', prefix.slice(0, n)),
          expect: 'accept',
          profile: 'contract',
        },
        {
          label: `${name} of ${n - 1} character(s)`,
          value: ofLength(n - 1, 'k'),
          expect: 'refuse',
          profile: n - 1 === 0 ? 'full' : 'contract',
        },
      ],
    });
  }
  if (typeof schema.maxLength === 'number') {
    const m = schema.maxLength;
    const cases: BoundaryCase[] = [
      { label: `${name} of ${m} ASCII characters (the maxLength)`, value: ofLength(m, 'k', prefix), expect: 'accept', profile: 'contract' },
      { label: `${name} of ${m + 1} ASCII characters`, value: ofLength(m + 1, 'k', prefix), expect: 'refuse', profile: 'contract' },
    ];
    for (const { char, what } of MULTI_BYTE) {
      if (!transmissible(char) || !fits(ofLength(m, char, prefix))) continue;
      cases.push(
        {
          label: `${name} of ${m} ${what} characters (the maxLength in code points)`,
          value: ofLength(m, char, prefix),
          expect: 'accept',
          profile: 'contract',
        },
        { label: `${name} of ${m + 1} ${what} characters`, value: ofLength(m + 1, char, prefix), expect: 'refuse', profile: 'contract' },
      );
    }
    rules.push({
      checkId: id('max-length'),
      ruleIds: [`${key}.maxLength`],
      description: `\`${name}\` of ${m} characters (its maxLength, counted in code points) is accepted, in ASCII and in multi-byte characters where allowed; ${m + 1} is a 400.`,
      location,
      name,
      operations,
      cases,
    });
  }
  if (pattern) {
    const cases = PATTERN_PROBES.filter(transmissible).map((char): BoundaryCase => {
      const value = `${prefix}-${char}-k`;
      const inside = pattern.test(value);
      const shown = JSON.stringify(char).slice(1, -1);
      return {
        label: `${name} with ${JSON.stringify(shown)} (${inside ? 'inside' : 'outside'} the pattern)`,
        value,
        expect: inside ? 'accept' : 'refuse',
        profile: 'contract',
      };
    });
    rules.push({
      checkId: id('pattern'),
      ruleIds: [`${key}.pattern`],
      description: `\`${name}\` values matching its pattern \`${schema.pattern}\` are accepted; values with a character outside it are a 400.`,
      location,
      name,
      operations,
      cases,
    });
  }
  return rules;
}

function enumRule(name: string, location: BoundaryLocation, operations: string[], values: string[], key: string): BoundaryRule {
  const cases: BoundaryCase[] = values.map((v) => ({ label: `${name}=${v}`, value: v, expect: 'accept', profile: 'contract' }));
  const variants = (v: string) => [
    { value: v.toUpperCase(), what: 'upper case' },
    { value: v.charAt(0).toUpperCase() + v.slice(1), what: 'capitalised' },
    { value: ` ${v}`, what: 'a leading space' },
    { value: `${v} `, what: 'a trailing space' },
  ];
  const seen = new Set(values);
  for (const v of values)
    for (const variant of variants(v)) {
      if (seen.has(variant.value)) continue;
      seen.add(variant.value);
      cases.push({
        label: `${name}=${JSON.stringify(variant.value)} (${v} in ${variant.what})`,
        value: variant.value,
        expect: 'refuse',
        profile: 'contract',
      });
    }
  return {
    checkId: `boundary.${kebab(name)}-enum`,
    ruleIds: [`${key}.enum`],
    description: `\`${name}\` accepts exactly ${values.join(', ')}: another letter case or a padded value is a 400.`,
    location,
    name,
    operations,
    cases,
  };
}

/** The filename limit of the upload's 202 (`documents[].filename.maxLength`), where the contract states one. */
export function filenameMaxLength(contract: Contract): number | undefined {
  const media = contract.response('uploadDocuments', 202)?.content?.['application/json'];
  const documents = propertyOf(media?.schema, 'documents') as Schema | undefined;
  const filename = propertyOf((documents as { items?: unknown } | undefined)?.items, 'filename') as Schema | undefined;
  return typeof filename?.maxLength === 'number' ? filename.maxLength : undefined;
}

function propertyOf(schema: unknown, name: string): unknown {
  const node = schema as { properties?: Record<string, unknown>; allOf?: unknown[] } | undefined;
  if (node?.properties?.[name] !== undefined) return node.properties[name];
  for (const branch of node?.allOf ?? []) {
    const found = propertyOf(branch, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function filenameRule(max: number, prefix: string): BoundaryRule {
  const cases: BoundaryCase[] = [
    {
      label: `a filename of ${max} ASCII characters (the maxLength)`,
      value: `${ofLength(max - 4, 'k', prefix)}.pdf`,
      expect: 'accept',
      profile: 'full',
    },
    {
      label: `a filename of ${max + 1} ASCII characters`,
      value: `${ofLength(max - 3, 'k', prefix)}.pdf`,
      expect: 'refuse',
      profile: 'full',
    },
  ];
  for (const { char, what } of MULTI_BYTE)
    cases.push(
      {
        label: `a filename of ${max} ${what} characters (the maxLength in code points)`,
        value: `${ofLength(max - 4, char, prefix)}.pdf`,
        expect: 'accept',
        profile: 'full',
      },
      {
        label: `a filename of ${max + 1} ${what} characters`,
        value: `${ofLength(max - 3, char, prefix)}.pdf`,
        expect: 'refuse',
        profile: 'full',
      },
    );
  return {
    checkId: 'boundary.filename-max-length',
    ruleIds: ['schema:DocumentFields.filename.maxLength', 'upload.filename-length'],
    description: `A filename of ${max} characters (the upload's documents[].filename maxLength, counted in code points) is a 202, in ASCII and in 2- and 4-byte UTF-8 characters; ${max + 1} is a 400.`,
    location: 'filename',
    name: 'filename',
    operations: ['uploadDocuments'],
    cases,
  };
}

/**
 * Every boundary rule of `contract`'s request parameters and upload filename. `prefix` starts every
 * string value that may be stored or searched (a run token), so what the cases create can be found.
 * @example boundaryRules(contract, 'conformance-run1-boundary').find((r) => r.checkId === 'boundary.limit-maximum')?.cases
 */
export function boundaryRules(contract: Contract, prefix = 'conformance'): BoundaryRule[] {
  const byParameter = new Map<string, { parameter: OpenAPIV3_1.ParameterObject; operations: string[] }>();
  for (const op of contract.operations)
    for (const p of (op.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
      const key = `${p.in}.${p.name}`;
      const entry = byParameter.get(key) ?? { parameter: p, operations: [] };
      entry.operations.push(op.operationId);
      byParameter.set(key, entry);
    }
  const rules: BoundaryRule[] = [];
  for (const [key, { parameter, operations }] of byParameter) {
    const location = parameter.in as BoundaryLocation;
    if (!['query', 'path', 'header'].includes(location)) continue;
    const schema = (parameter.schema ?? {}) as Schema;
    const ruleKey = `param:${key}`;
    if (schema.type === 'integer') rules.push(...integerRules(parameter.name, location, operations, schema, ruleKey));
    else if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))
      rules.push(enumRule(parameter.name, location, operations, schema.enum as string[], ruleKey));
    else if (schema.type === 'string') rules.push(...stringRules(parameter.name, location, operations, schema, ruleKey, prefix));
  }
  const filenameMax = filenameMaxLength(contract);
  if (filenameMax !== undefined) rules.push(filenameRule(filenameMax, prefix));
  return rules;
}
