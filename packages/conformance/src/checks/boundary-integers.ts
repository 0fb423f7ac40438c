import { OPEN_INTEGER_SPELLINGS } from '../rules/open-readings.js';
import type { BoundaryCase, BoundaryLocation, BoundaryRule, BoundarySchema as Schema } from './boundary-types.js';
import { kebab } from './boundary-types.js';

const ARABIC_INDIC = '٠١٢٣٤٥٦٧٨٩';
const FULLWIDTH = '０１２３４５６７８９';
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

/**
 * The rules of an integer parameter: its minimum, its maximum (and int64), and its spelling.
 * @example integerRules('limit', 'query', ['listDocuments'], { type: 'integer', minimum: 1, maximum: 100 }, 'param:query.limit')
 */
export function integerRules(name: string, location: BoundaryLocation, operations: string[], schema: Schema, key: string): BoundaryRule[] {
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
    ruleIds: [`${key}.type`, 'params.integer-digits', 'params.integer-spelling', 'params.integer-open-spellings'],
    description: `\`${name}\` is written in ASCII decimal digits: the same number spelled with spaces, a fraction, an exponent, hex, underscores or other digits, or nothing at all, is a 400 (lenient parsers read a number in each); with a leading zero or a \`+\` it is a 400 or answered as the plain number.`,
    location,
    name,
    operations,
    cases: [
      { label: `${name}=${base} (plain)`, value: String(base), expect: 'accept', profile: 'contract' },
      ...lenientSpellings(base).map(({ spelling, what }) => ({
        label: `${name}=${JSON.stringify(spelling)} (${base} with ${what})`,
        value: spelling,
        ...(OPEN_INTEGER_SPELLINGS.has(what) ? { expect: 'either' as const, sameAs: String(base) } : { expect: 'refuse' as const }),
        profile: 'full' as const,
      })),
      { label: `${name} empty`, value: '', expect: 'refuse', profile: 'full' },
    ],
  });
  return rules;
}
