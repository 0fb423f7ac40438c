import { defineCheck } from './define.js';

/** Requests released together (each written but its last byte, then every last byte at once). */
export const raceChecks = {
  retryFinished: defineCheck({
    id: 'retry.race-finished',
    profile: 'full',
    area: 'retry',
    description:
      'Of simultaneous retries of a completed or of a failed document exactly one is a 202, every other one a 409 document_busy, and the document counts one more attempt.',
  }),
  sameKey: defineCheck({
    id: 'upload.race-same-key',
    profile: 'full',
    area: 'upload',
    description:
      'Simultaneous uploads of the same files under one Idempotency-Key make one set of documents: every 202 carries the same ids, every other answer is a 409 idempotency_key_in_use.',
  }),
  distinctIds: defineCheck({
    id: 'upload.distinct-ids',
    profile: 'full',
    area: 'upload',
    description:
      'Every document an upload creates gets an id no other document has or had: within one upload, across uploads sent at the same moment, across tenants; each id reads back as its own file.',
  }),
} as const;
