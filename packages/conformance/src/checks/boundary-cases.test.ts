import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { afterAll, describe, expect, it } from 'vitest';
import { contractFacts } from '../rules/contract-facts.js';
import { createLimits } from '../transport/limits.js';
import { type BoundaryRule, boundaryRules, lenientSpellings } from './boundary-cases.js';
import { credentialCases } from './credential-places.js';

const yaml = readFileSync(bundledSpecPath, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'boundary-cases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The contract with `edits` applied, loaded as the suite loads one (validated and dereferenced). */
async function edited(edits: Array<[RegExp | string, string]>) {
  let text = yaml;
  for (const [from, to] of edits) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`edit not applied: ${from}`);
    text = next;
  }
  const file = join(dir, `openapi-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return loadContract(file);
}

const rule = (rules: BoundaryRule[], id: string) => {
  const found = rules.find((r) => r.checkId === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};
const codePoints = (s: string) => [...s].length;
const verdicts = (r: BoundaryRule) => r.cases.map((c) => [c.expect, codePoints(c.value)]);

describe('boundary cases come from the contract', async () => {
  const bundled = boundaryRules(await loadContract(), 'conformance-run1-boundary');

  it('make one rule per constraint a request parameter, header, path id or filename states', () => {
    expect(bundled.map((r) => r.checkId).sort()).toEqual(
      [
        'boundary.document-id-integer',
        'boundary.document-id-maximum',
        'boundary.document-id-minimum',
        'boundary.filename-max-length',
        'boundary.filename-nul',
        'boundary.idempotency-key-max-length',
        'boundary.idempotency-key-min-length',
        'boundary.idempotency-key-pattern',
        'boundary.limit-integer',
        'boundary.limit-maximum',
        'boundary.limit-minimum',
        'boundary.page-integer',
        'boundary.page-maximum',
        'boundary.page-minimum',
        'boundary.search-max-length',
        'boundary.search-min-length',
        'boundary.search-nul',
        'boundary.status-filter-enum',
      ].sort(),
    );
  });

  it('accept a search of 200 multi-byte characters and refuse 201, counting code points', () => {
    const cases = rule(bundled, 'boundary.search-max-length').cases;
    const emoji = cases.filter((c) => c.value.includes('😀'));
    expect(emoji.map((c) => [c.expect, codePoints(c.value)])).toEqual([
      ['accept', 200],
      ['refuse', 201],
    ]);
    expect(Buffer.byteLength(emoji[0]!.value)).toBeGreaterThan(600);
  });

  it('accept a filename of 255 code points in 4-byte characters and refuse 256', () => {
    const astral = rule(bundled, 'boundary.filename-max-length').cases.filter((c) => c.value.includes('😀'));
    expect(astral.map((c) => [c.expect, codePoints(c.value)])).toEqual([
      ['accept', 255],
      ['refuse', 256],
    ]);
    expect(astral.every((c) => c.value.startsWith('conformance-run1-boundary'))).toBe(true);
  });

  it('refuse a search and a filename holding a NUL, the filename sent as filename*', () => {
    const nul = (id: string) => rule(bundled, id).cases.map((c) => [c.expect, c.code, c.value.includes('\u0000'), c.via]);
    expect(nul('boundary.search-nul')).toEqual([
      ['refuse', 'invalid_request', true, undefined],
      ['refuse', 'invalid_request', true, undefined],
    ]);
    expect(nul('boundary.filename-nul')).toEqual([['refuse', 'invalid_request', true, 'filename*']]);
  });

  it('refuse the lenient spellings of an integer the contract refuses, leave open the two it leaves open, and accept its plain form', () => {
    const cases = rule(bundled, 'boundary.limit-integer').cases;
    expect(cases.filter((c) => c.expect === 'accept').map((c) => c.value)).toEqual(['10']);
    expect(cases.filter((c) => c.expect === 'refuse').map((c) => c.value)).toEqual(
      expect.arrayContaining([' 10', '10 ', '10.0', '1e1', '0xa', '1_0', '١٠', '１０', '']),
    );
    expect(cases.filter((c) => c.expect === 'either').map((c) => [c.value, c.sameAs])).toEqual([
      ['+10', '10'],
      ['010', '10'],
    ]);
  });

  it('probe the Idempotency-Key pattern with characters on both sides of it, sendable in a header', () => {
    const cases = rule(bundled, 'boundary.idempotency-key-pattern').cases;
    const inside = cases.filter((c) => c.expect === 'accept').map((c) => c.value.split('-').at(-2));
    expect(inside).toEqual(['~', ' ', '!']);
    expect(cases.filter((c) => c.expect === 'refuse').length).toBeGreaterThanOrEqual(3);
    expect(cases.every((c) => [...c.value].every((ch) => ch.codePointAt(0)! <= 0xff))).toBe(true);
  });

  it('follow a contract with other limits, enum values and pattern, with no code change', async () => {
    const contract = await edited([
      [/(\n {4}Limit:\n(?: {6}.*\n)*? {8}maximum:) 100\n/, '$1 50\n'],
      [/(\n {4}Search:\n(?: {6}.*\n)*? {8}maxLength:) 200\n/, '$1 80\n'],
      ['enum: [processing, completed, failed]', 'enum: [processing, completed, failed, archived]'],
      ["maxLength: 255\n        pattern: '^[\\x20-\\x7E]+$'", "maxLength: 64\n        pattern: '^[A-Za-z0-9-]+$$'"],
      [/(\n {8}filename:\n {10}type: string\n {10}maxLength:) 255\n/, '$1 100\n'],
    ]);
    const rules = boundaryRules(contract, 'conformance-run2-boundary');
    expect(verdicts(rule(rules, 'boundary.limit-maximum')).slice(0, 2)).toEqual([
      ['accept', 2],
      ['refuse', 2],
    ]);
    expect(
      rule(rules, 'boundary.limit-maximum')
        .cases.slice(0, 2)
        .map((c) => c.value),
    ).toEqual(['50', '51']);
    expect(verdicts(rule(rules, 'boundary.search-max-length'))).toContainEqual(['accept', 80]);
    expect(verdicts(rule(rules, 'boundary.search-max-length'))).toContainEqual(['refuse', 81]);
    expect(
      rule(rules, 'boundary.status-filter-enum')
        .cases.filter((c) => c.expect === 'accept')
        .map((c) => c.value),
    ).toContain('archived');
    expect(verdicts(rule(rules, 'boundary.filename-max-length'))).toContainEqual(['accept', 100]);
    expect(verdicts(rule(rules, 'boundary.idempotency-key-max-length'))).toEqual([
      ['accept', 64],
      ['refuse', 65],
    ]);
    // The new pattern refuses a space and a tilde the old one allowed.
    expect(rule(rules, 'boundary.idempotency-key-pattern').cases.filter((c) => c.expect === 'accept')).toEqual([]);
    expect(rule(rules, 'boundary.limit-maximum').description).toContain('(50)');
  });
});

describe('the upload limits come from the contract too', () => {
  it("are x-default-limits when no --max-files/--max-file-bytes is given, the flags' values when they are", async () => {
    const contract = await edited([
      ['max_file_bytes: 26214400', 'max_file_bytes: 1000'],
      ['max_files: 20', 'max_files: 5'],
    ]);
    const facts = contractFacts(contract);
    expect(createLimits({}, facts)).toMatchObject({ maxFiles: 5, maxFileBytes: 1000, filesText: "the contract's default max-files is 5" });
    expect(createLimits({ maxFiles: 3, maxFileBytes: 2000 }, facts)).toMatchObject({ maxFiles: 3, maxFileBytes: 2000 });
  });
});

describe('lenientSpellings', () => {
  it.each([
    [10n, ['+10', '010', '1e1', '0xa', '1_0', '١٠']],
    [9007199254740991n, ['9.007199254740991e15', '0x1fffffffffffff', '9_007199254740991']],
    [0n, ['-0']],
  ])('of %s include %j', (value, spellings) => {
    expect(lenientSpellings(value).map((s) => s.spelling)).toEqual(expect.arrayContaining(spellings));
  });

  it('are each read as the number by a lenient parser, never by the plain decimal form', () => {
    for (const { spelling } of lenientSpellings(10n)) expect(/^(0|[1-9][0-9]*)$/.test(spelling)).toBe(false);
  });
});

describe('credential cases come from the security scheme', async () => {
  it('leave out the documented header and keep every other common place', async () => {
    const cases = credentialCases(await loadContract()).map((c) => c.label);
    expect(cases).toEqual(
      expect.arrayContaining(['query ?x-api-key=', 'query ?api_key=', 'query ?apiKey=', 'Authorization: Bearer', 'cookie x-api-key=']),
    );
    expect(cases.some((l) => /^header x-api-key:/i.test(l))).toBe(false);
  });

  it('follow a scheme that puts the key in the query string: that name is no longer a wrong place', async () => {
    const contract = await edited([['      in: header\n      name: x-api-key', '      in: query\n      name: api_key']]);
    const cases = credentialCases(contract).map((c) => c.label);
    expect(cases).not.toContain('query ?api_key=');
    expect(cases).toContain('query ?key=');
  });
});
