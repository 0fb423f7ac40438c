import { describe, expect, it } from 'vitest';
import { staticCatalog } from './index.js';

// The stateful model's checks are judged against the state the model keeps of every earlier answer
// (model/judge-*.ts), which the checks' layer cannot see; they are the only ones judged away from their id.
const JUDGED_BY_THE_MODEL = [
  'model.lists',
  'model.documents',
  'lifecycle.updated-at-moves',
  'lifecycle.processed-at',
  'lifecycle.timestamps-on-the-clock',
  'upload.idempotency-lifecycle',
];

describe('the catalogue of checks', () => {
  it('gives every check its judge beside its id and description, but the model run’s', () => {
    const without = staticCatalog.filter((c) => !c.judge).map((c) => c.id);
    expect(without).toEqual(JUDGED_BY_THE_MODEL);
  });
});
