import { defineCheck } from './define.js';

/** The optional Idempotency-Key of POST /documents/upload_files (IETF httpapi draft semantics). */
export const idempotencyChecks = {
  replay: defineCheck({
    id: 'upload.idempotent-replay',
    profile: 'full',
    area: 'upload',
    description:
      'The same upload sent again under the same Idempotency-Key is a 202 with the same document ids, and creates no new document.',
    rules: [],
  }),
  replayHeader: defineCheck({
    id: 'upload.replay-header',
    profile: 'full',
    area: 'upload',
    description:
      'A replayed upload carries the documented replay header (`Idempotent-Replayed: true`); the first upload under a key does not.',
    rules: [],
  }),
  reused: defineCheck({
    id: 'upload.idempotency-key-reused',
    profile: 'full',
    area: 'upload',
    description: 'Other files under an Idempotency-Key already used are a 409 idempotency_key_reused and create nothing.',
    rules: [],
  }),
  inUse: defineCheck({
    id: 'upload.idempotency-key-in-use',
    profile: 'full',
    area: 'upload',
    description:
      'A repeat that arrives while the first upload under its key is still in flight is a 409 idempotency_key_in_use (or, once the first has finished, its replay), never a second set of documents.',
    rules: [],
  }),
} as const;
