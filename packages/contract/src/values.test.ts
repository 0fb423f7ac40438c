import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { BUNDLED, ruleTest } from './bundled.js';
import { bundledSpecPath } from './paths.js';
import { contractValuesOf, type RawDocument } from './values.js';

const yaml = readFileSync(bundledSpecPath, 'utf8');

describe('the values the servers take from the contract', () => {
  it('are generated from the bundled contract as it is (src/generated/contract-values.ts is fresh)', () => {
    expect(BUNDLED).toEqual(contractValuesOf(load(yaml) as RawDocument));
  });

  it('follow an edited contract: filename length, id maximum, header rules and upload limits', () => {
    const edited = yaml
      .replace(/(filename:\n {10}type: string\n {10}maxLength:) 255/, '$1 100')
      .replace(/(\n {4}IdempotencyKey:\n(?: {6}.*\n)*? {8}maxLength:) 255\n/, '$1 64\n')
      .replace(/(\n {4}XRequestId:\n(?: {6}.*\n)*? {8}maxLength:) 200\n/, '$1 50\n')
      .replace(/(\n {4}DocumentId:\n(?: {6}.*\n)*? {8}maximum:) 9007199254740991\n/, '$1 1000000\n')
      .replace('max_files: 20', 'max_files: 5');
    const values = contractValuesOf(load(edited) as RawDocument);
    expect(values.maxFilenameLength).toBe(100);
    expect(values.idempotencyKey.maxLength).toBe(64);
    expect(values.requestId.maxLength).toBe(50);
    expect(values.maxId).toBe(1_000_000);
    expect(values.maxPage).toBe(BUNDLED.maxPage);
    expect(values.uploadLimits.maxFiles).toBe(5);
    expect(values.operations.map((op) => op.operationId)).toEqual(['uploadDocuments', 'listDocuments', 'getDocument', 'retryDocument']);
  });

  it('name what a contract leaves out', () => {
    const without = yaml.replace(/(filename:\n {10}type: string\n) {10}maxLength: 255\n/, '$1');
    expect(() => contractValuesOf(load(without) as RawDocument)).toThrow(/maxLength for DocumentSummary.filename/);
  });
});

describe('a string rule of the contract', () => {
  const requestId = ruleTest(BUNDLED.requestId);
  it.each([
    ['a visible ASCII id', 'req-42', true],
    [`exactly ${BUNDLED.requestId.maxLength} characters`, 'x'.repeat(BUNDLED.requestId.maxLength), true],
    ['one character too many', 'x'.repeat(BUNDLED.requestId.maxLength + 1), false],
    ['a space', 'req 42', false],
    ['a non-ASCII character', 'réq', false],
    ['empty', '', false],
  ])('%s: %s', (_what, value, ok) => {
    expect(requestId(value)).toBe(ok);
  });

  it('counts length in code points, as JSON Schema does', () => {
    const test = ruleTest({ minLength: 1, maxLength: 3, pattern: '^.+$' });
    expect(test('😀😀😀')).toBe(true);
    expect(test('😀😀😀😀')).toBe(false);
  });
});
