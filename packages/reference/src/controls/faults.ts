import { ApiError, type ErrorCode, type FieldError, invalidRequest } from '../http/problem.js';

/** The statuses a fault can answer with. */
export const FAULT_STATUSES = [429, 500, 503] as const;
/** One of {@link FAULT_STATUSES}. */
export type FaultStatus = (typeof FAULT_STATUSES)[number];

/** A share of one operation's requests answered with an error instead. */
export interface FaultRule {
  /** Share (0..1) of the operation's requests that fail. */
  rate: number;
  status: FaultStatus;
  /** The `Retry-After` of a 429 or 503, in seconds. */
  retry_after_s: number;
}

/** One tenant's injected faults. */
export interface Faults {
  /** Added to every API request, in ms. */
  latency_ms: number;
  /** Plus a uniformly random 0..jitter_ms, in ms. */
  jitter_ms: number;
  /** By operationId. */
  errors: Record<string, FaultRule>;
}

/** A change to a tenant's faults: latency replaced, rules merged by operation (`null` removes one). */
export interface FaultsChange {
  latency_ms?: number;
  jitter_ms?: number;
  errors?: Record<string, FaultRule | null>;
}

/**
 * Faults per tenant. Reads are synchronous (every API request peeks); changes are asynchronous, so a
 * registry shared by replicas can store them. The in-memory one: a restart or a reset clears them.
 */
export interface FaultRegistry {
  get(tenant: string): Faults;
  /** The tenant's faults as held (not a copy), or undefined when it has none set: the hot path. */
  peek(tenant: string): Readonly<Faults> | undefined;
  update(tenant: string, change: FaultsChange): Promise<Faults>;
  reset(tenant: string): Promise<void>;
}

/** The longest added latency or jitter the controls accept (60 s). */
export const MAX_FAULT_LATENCY_MS = 60_000;
const DEFAULT_RETRY_AFTER_S = 5;
const CODES: Record<FaultStatus, ErrorCode> = { 429: 'too_many_requests', 500: 'internal_error', 503: 'service_unavailable' };

/** No faults: a tenant's faults before any are set. */
export const none = (): Faults => ({ latency_ms: 0, jitter_ms: 0, errors: {} });
const copy = (faults: Faults): Faults => ({ ...faults, errors: { ...faults.errors } });

/** A tenant's faults after a change (latency replaced, rules merged by operation, `null` removes one); `faults` is left as it is. */
export function changedFaults(faults: Faults, change: FaultsChange): Faults {
  const next = copy(faults);
  if (change.latency_ms !== undefined) next.latency_ms = change.latency_ms;
  if (change.jitter_ms !== undefined) next.jitter_ms = change.jitter_ms;
  for (const [operationId, rule] of Object.entries(change.errors ?? {})) {
    if (rule === null) delete next.errors[operationId];
    else next.errors[operationId] = rule;
  }
  return next;
}

/**
 * Holds each tenant's injected faults (none by default).
 * @example const faults = createFaults(); faults.update(tenant, { latency_ms: 300 });
 */
export function createFaults(): FaultRegistry {
  const byTenant = new Map<string, Faults>();
  return {
    get: (tenant) => copy(byTenant.get(tenant) ?? none()),
    peek: (tenant) => byTenant.get(tenant),
    async update(tenant, change) {
      const next = changedFaults(byTenant.get(tenant) ?? none(), change);
      byTenant.set(tenant, next);
      return copy(next);
    },
    reset: async (tenant) => void byTenant.delete(tenant),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isIntegerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

function parseRule(name: string, value: unknown, errors: FieldError[]): FaultRule | null | undefined {
  if (value === null) return null;
  const field = `errors.${name}`;
  if (!isObject(value)) {
    errors.push({
      in: 'body',
      name: field,
      message: 'must be {"rate": 0..1, "status": 429 | 500 | 503, "retry_after_s"?: seconds} or null',
    });
    return undefined;
  }
  for (const key of Object.keys(value))
    if (!['rate', 'status', 'retry_after_s'].includes(key))
      errors.push({ in: 'body', name: `${field}.${key}`, message: 'unknown field; known: rate, status, retry_after_s' });
  const { rate, status, retry_after_s: retryAfter = DEFAULT_RETRY_AFTER_S } = value;
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1))
    errors.push({ in: 'body', name: `${field}.rate`, message: 'must be a number from 0 to 1' });
  if (!FAULT_STATUSES.includes(status as FaultStatus))
    errors.push({ in: 'body', name: `${field}.status`, message: 'must be 429, 500 or 503' });
  if (!isIntegerIn(retryAfter, 0, 86_400))
    errors.push({ in: 'body', name: `${field}.retry_after_s`, message: 'must be an integer from 0 to 86400' });
  return { rate: rate as number, status: status as FaultStatus, retry_after_s: retryAfter as number };
}

/**
 * Validates a `PATCH /_mock/faults` body, strictly: a typo must not silently inject nothing.
 * @example parseFaultsChange({ errors: { listDocuments: { rate: 0.5, status: 503 } } }, ['listDocuments']);
 */
export function parseFaultsChange(body: unknown, operationIds: readonly string[]): FaultsChange {
  if (!isObject(body))
    throw invalidRequest([{ in: 'body', name: 'body', message: 'must be a JSON object (Content-Type: application/json)' }]);
  const errors: FieldError[] = [];
  const change: FaultsChange = {};
  for (const key of Object.keys(body))
    if (!['latency_ms', 'jitter_ms', 'errors'].includes(key))
      errors.push({ in: 'body', name: key, message: 'unknown field; known: latency_ms, jitter_ms, errors' });
  for (const key of ['latency_ms', 'jitter_ms'] as const) {
    if (body[key] === undefined) continue;
    if (isIntegerIn(body[key], 0, MAX_FAULT_LATENCY_MS)) change[key] = body[key];
    else errors.push({ in: 'body', name: key, message: `must be an integer from 0 to ${MAX_FAULT_LATENCY_MS}` });
  }
  if (body.errors !== undefined) {
    if (!isObject(body.errors)) errors.push({ in: 'body', name: 'errors', message: 'must be an object keyed by operationId' });
    else {
      change.errors = {};
      for (const [operationId, value] of Object.entries(body.errors)) {
        if (!operationIds.includes(operationId)) {
          errors.push({ in: 'body', name: `errors.${operationId}`, message: `unknown operation; known: ${operationIds.join(', ')}` });
          continue;
        }
        const rule = parseRule(operationId, value, errors);
        if (rule !== undefined) change.errors[operationId] = rule;
      }
    }
  }
  if (errors.length > 0) throw invalidRequest(errors);
  return change;
}

/**
 * Applies a tenant's injected faults to one API request, before the request is looked at: waits the
 * added latency, then answers a share of the operation's requests with the chosen error (problem+json,
 * `Retry-After` on 429 and 503) by throwing it. A tenant without faults (every tenant, normally) costs
 * one lookup: no copy, no promise.
 * @example await applyFaults(faults.peek(tenant), 'listDocuments');
 */
export function applyFaults(
  set: Readonly<Faults> | undefined,
  operationId: string | undefined,
  random: () => number = Math.random,
): Promise<void> | undefined {
  if (set === undefined) return undefined;
  return (async () => {
    const { latency_ms: latency, jitter_ms: jitter, errors } = set;
    const delay = latency + (jitter > 0 ? Math.round(random() * jitter) : 0);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const rule = operationId ? errors[operationId] : undefined;
    if (rule && random() < rule.rate) {
      const retry = rule.status === 500 ? {} : { headers: { 'Retry-After': String(rule.retry_after_s) } };
      const later = rule.status === 500 ? '' : `; retry after ${rule.retry_after_s} s`;
      throw new ApiError(
        CODES[rule.status],
        `Fault injected by the mock controls for ${operationId} (PATCH /_mock/faults)${later}.`,
        retry,
      );
    }
  })();
}
