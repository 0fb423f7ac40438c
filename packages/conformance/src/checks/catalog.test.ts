import { describe, expect, it } from 'vitest';
import { staticCatalog } from './index.js';

describe('the catalogue of checks', () => {
  it('gives every check its judge beside its id and description', () => {
    const without = staticCatalog.filter((c) => !c.judge).map((c) => c.id);
    expect(without).toEqual([]);
  });
});
