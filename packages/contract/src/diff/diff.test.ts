import { at, bundledDocument, edited } from '@docproc-kit/test-support/contract-edits.js';
import { describe, expect, it } from 'vitest';
import { DIFF_RULES, diffContracts } from './index.js';

const LIST = '/api/v1/documents/get_documents';

describe('the contract diff', () => {
  it('finds nothing between the bundled contract and itself', () => {
    expect(diffContracts(bundledDocument(), bundledDocument())).toEqual({ changes: [], implementers: [], prose: [] });
  });

  it('calls a removed operation breaking, and an added one compatible with work for implementers', () => {
    const removed = diffContracts(
      bundledDocument(),
      edited((doc) => delete at(doc, 'paths')[LIST]),
    );
    expect(removed.changes).toEqual([
      expect.objectContaining({ rule: 'api-operation-removed', severity: 'breaking', location: `GET ${LIST}` }),
    ]);
    const added = diffContracts(
      edited((doc) => delete at(doc, 'paths')[LIST]),
      bundledDocument(),
    );
    expect(added.changes.map((c) => [c.rule, c.severity])).toEqual([['api-operation-added', 'compatible']]);
    expect(added.implementers).toEqual([expect.objectContaining({ rule: 'api-operation-added', location: `GET ${LIST}` })]);
  });

  it('gives every rule a unique id', () => {
    expect(new Set(DIFF_RULES.map((r) => r.id)).size).toBe(DIFF_RULES.length);
  });
});
