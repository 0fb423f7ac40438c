import type { OpenAPIV3_1 } from 'openapi-types';
import type { Profile } from '../definitions/check.js';

/** Where a constrained value travels. */
export type BoundaryLocation = 'query' | 'path' | 'header' | 'filename';

/** One request of a boundary rule: a value and whether the contract accepts it. */
export interface BoundaryCase {
  /** Names the case in the test name and failures: `limit=101 (one past the maximum)`. */
  label: string;
  /** The value exactly (not encoded): the suite percent-encodes query and path values, sends headers as they are. */
  value: string;
  /**
   * `accept`: the request is not refused for this value; `refuse`: a 400; `either`: a reading the contract
   * leaves open (rules/open-readings.ts): a 400, or an answer as for the plain spelling `sameAs`.
   */
  expect: 'accept' | 'refuse' | 'either';
  /** For `either`: the plain spelling of the same value, whose answer an accepting reading must give. */
  sameAs?: string;
  /** The least profile that sends it: spellings a coercing mock cannot tell apart are `full`. */
  profile: Profile;
  /** Set when an accepted value may name something that exists: never sent to an operation that changes state. */
  mayNameDocument?: boolean;
  /** For `refuse`: the problem `code` the refusal must carry, where the contract's words name one. */
  code?: string;
  /** For a filename: sent as `filename*` (RFC 5987, percent-encoded UTF-8), the only way some values travel. */
  via?: 'filename*';
}

/** One constraint and its cases. */
export interface BoundaryRule {
  /** `boundary.limit-maximum`. */
  checkId: string;
  /** The contract rules it tests (rules/schema-rules.ts ids). */
  ruleIds: string[];
  description: string;
  location: BoundaryLocation;
  /** The parameter's (or multipart field's) name. */
  name: string;
  /** The operations that take it. */
  operations: string[];
  cases: BoundaryCase[];
}

/** A parameter's schema, as the generators read it. */
export type BoundarySchema = OpenAPIV3_1.SchemaObject & { maximum?: number; minimum?: number };

/** `limit` -> `limit`, `status_filter` -> `status-filter`, `Idempotency-Key` -> `idempotency-key`. */
export const kebab = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
