import { readFileSync } from 'node:fs';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { parseListQuery } from '@docproc-kit/reference/validation.js';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { BUNDLED } from './bundled.js';
import { listValuesFromParameters, listValuesOf } from './list-values.js';
import { bundledSpecPath } from './paths.js';

const yaml = readFileSync(bundledSpecPath, 'utf8');

describe('the list values come from the contract', () => {
  it('read the same from the raw document (the server) as from the dereferenced contract (the conformance suite)', async () => {
    const contract = await loadContract();
    const fromContract = listValuesFromParameters(contract.operation('listDocuments')!.definition.parameters as never);
    expect(BUNDLED.list).toEqual(fromContract);
    expect(BUNDLED.list).toEqual({
      defaultLimit: 20,
      maxLimit: 100,
      maxSearchLength: 200,
      statuses: ['processing', 'completed', 'failed'],
    });
  });

  it('follow an edited contract: another default and maximum limit, search length and status list', () => {
    const edited = yaml
      .replace(/(\n {4}Limit:\n(?: {6}.*\n)*? {8}maximum:) 100\n/, '$1 50\n')
      .replace(/(\n {4}Limit:\n(?: {6}.*\n)*? {8}default:) 20\n/, '$1 10\n')
      .replace(/(\n {4}Search:\n(?: {6}.*\n)*? {8}maxLength:) 200\n/, '$1 80\n')
      .replace('enum: [processing, completed, failed]', 'enum: [processing, completed, failed, archived]');
    expect(listValuesOf(load(edited) as never)).toEqual({
      defaultLimit: 10,
      maxLimit: 50,
      maxSearchLength: 80,
      statuses: ['processing', 'completed', 'failed', 'archived'],
    });
  });

  it('are the ones the server validates the list query with', () => {
    const { defaultLimit, maxLimit, maxSearchLength, statuses } = BUNDLED.list;
    expect(parseListQuery({})).toEqual({ page: 1, limit: defaultLimit });
    expect(parseListQuery({ limit: String(maxLimit) }).limit).toBe(maxLimit);
    expect(() => parseListQuery({ limit: String(maxLimit + 1) })).toThrow();
    expect(() => parseListQuery({ search: 'x'.repeat(maxSearchLength + 1) })).toThrow();
    for (const status of statuses) expect(parseListQuery({ status_filter: status }).status).toBe(status);
  });

  it('name what a contract leaves out', () => {
    expect(() => listValuesFromParameters([{ name: 'limit', schema: { type: 'integer' } }])).toThrow(
      /no search parameter|no default or maximum limit/,
    );
  });
});
