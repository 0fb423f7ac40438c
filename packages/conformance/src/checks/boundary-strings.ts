import type { BoundaryCase, BoundaryLocation, BoundaryRule, BoundarySchema as Schema } from './boundary-types.js';
import { kebab } from './boundary-types.js';

/** A character of 2 UTF-8 bytes and one of 4 (2 UTF-16 units): servers counting bytes or UTF-16 units miscount both. */
const MULTI_BYTE = [
  { char: 'é', what: '2-byte' },
  { char: '😀', what: '4-byte' },
];
/** Characters that test a pattern: each is inside or outside it, decided by the pattern itself. */
const PATTERN_PROBES = ['~', ' ', '!', '\t', '\u00a0', 'é', 'ÿ', '😀'];

/** `count` characters: `prefix`, then `fill` repeated (code points). */
function ofLength(count: number, fill: string, prefix = ''): string {
  const head = [...prefix].slice(0, count);
  return head.join('') + fill.repeat(Math.max(0, count - head.length));
}

/** The rules of a string parameter: minLength, maxLength (in code points, multi-byte where allowed) and pattern. */
export function stringRules(
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

/** The rule of an enum parameter: each value exactly, and none in another letter case or padded. */
export function enumRule(name: string, location: BoundaryLocation, operations: string[], values: string[], key: string): BoundaryRule {
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

/** The rule of the upload's filename: the 202 schema's maxLength, in ASCII and multi-byte characters. */
export function filenameRule(max: number, prefix: string): BoundaryRule {
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
