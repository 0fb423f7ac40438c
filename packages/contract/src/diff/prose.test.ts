import { at, bundledDocument, edited } from '@docproc-kit/test-support/contract-edits.js';
import { describe, expect, it } from 'vitest';
import { diffContracts } from './index.js';

type Doc = Record<string, unknown>;
const limit = (d: Doc) => at(d, 'components/parameters/Limit');

describe('the prose diff', () => {
  it('reports a reworded sentence at its place, with both wordings', () => {
    const head = edited((d) => {
      limit(d).description = 'Documents per page, 1 to 100. Defaults to 50. Larger values are a `400`, not clamped.';
    });
    expect(diffContracts(bundledDocument(), head).prose).toEqual([
      { kind: 'changed', location: 'param:Limit', base: 'Defaults to 20.', head: 'Defaults to 50.' },
    ]);
  });

  it('reports an added and a removed sentence', () => {
    const head = edited((d) => {
      limit(d).description = 'Documents per page, 1 to 100. Larger values are a `400`, not clamped. Zero is refused too.';
    });
    expect(diffContracts(bundledDocument(), head).prose).toEqual([
      { kind: 'removed', location: 'param:Limit', base: 'Defaults to 20.' },
      { kind: 'added', location: 'param:Limit', head: 'Zero is refused too.' },
    ]);
  });

  it('ignores how a description is wrapped', () => {
    const head = edited((d) => {
      limit(d).description = 'Documents per page,\n1 to 100.   Defaults to 20.\nLarger values are a `400`, not clamped.\n';
    });
    expect(diffContracts(bundledDocument(), head).prose).toEqual([]);
  });

  it('keeps the place of a renamed component and of a renamed operation', () => {
    const head = edited((d) => {
      const parameters = at(d, 'components/parameters');
      parameters.PageSize = { ...(parameters.Limit as Doc), description: 'Documents per page, 1 to 100. Defaults to 25.' };
      delete parameters.Limit;
      const list = at(d, 'paths/~1api~1v1~1documents~1get_documents/get');
      list.parameters = (list.parameters as Doc[]).map((p) =>
        p.$ref === '#/components/parameters/Limit' ? { $ref: '#/components/parameters/PageSize' } : p,
      );
      list.operationId = 'getDocuments';
    });
    const diff = diffContracts(bundledDocument(), head);
    expect(diff.prose).toEqual([
      { kind: 'changed', location: 'param:PageSize', base: 'Defaults to 20.', head: 'Defaults to 25.' },
      { kind: 'removed', location: 'param:PageSize', base: 'Larger values are a `400`, not clamped.' },
    ]);
  });
});
