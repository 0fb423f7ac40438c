import type { OpenAPIV3_1 } from 'openapi-types';
import type { Contract } from '../../src/contract/contract.js';
import { checks } from '../checks/index.js';
import type { Exchange } from './exchange.js';
import { show } from './failure.js';
import type { Judge } from './judge.js';

const c = checks.response;

/** What the response checks need besides the exchange. */
export interface ResponseCheckContext {
  contract: Contract;
  strict: boolean;
  judge: Judge;
}

/** How much of a body a failure record keeps (the console shows less; the JSON report all of this). */
const RECORDED_BODY_LIMIT = 65_536;

/** `204 application/json {"a":1}`: a one-line picture of a response for Received lines. */
export function describeResponse(exchange: Exchange): string {
  const body =
    exchange.json !== undefined
      ? show(exchange.json, RECORDED_BODY_LIMIT)
      : exchange.text
        ? show(exchange.text, RECORDED_BODY_LIMIT)
        : '(empty body)';
  return `${exchange.status} ${exchange.mediaType || '(no content-type)'} ${body}`;
}

/** The documented response for the exchange's status (exact, then `4XX`, then `default`). */
export function documentedResponse(exchange: Exchange): OpenAPIV3_1.ResponseObject | undefined {
  const r = exchange.target.responses;
  return r[String(exchange.status)] ?? r[`${String(exchange.status)[0]}XX`] ?? r.default;
}

function documentedStatuses(exchange: Exchange): string {
  return Object.keys(exchange.target.responses).join(', ');
}

const isJsonType = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** A 5xx is never acceptable, even where the contract documents a 500. */
export function neverServerError(exchange: Exchange, ctx: ResponseCheckContext): void {
  ctx.judge.verify(c.neverServerError, exchange.status < 500, () => ({
    received: describeResponse(exchange),
    documented: 'a non-5xx answer (the request the suite sent must not break the server)',
    exchange,
  }));
}

/** The status must be one the contract lists for this operation. */
export function statusIsDocumented(exchange: Exchange, ctx: ResponseCheckContext): void {
  ctx.judge.verify(c.statusDocumented, documentedResponse(exchange) !== undefined, () => ({
    received: describeResponse(exchange),
    documented: `one of ${documentedStatuses(exchange)}`,
    exchange,
  }));
}

/** Every error is an RFC 9457 problem whose `status` repeats the HTTP status. */
export function errorIsProblemJson(exchange: Exchange, ctx: ResponseCheckContext): void {
  if (exchange.status < 400) return;
  const body = exchange.json as { status?: unknown } | undefined;
  const holds =
    exchange.mediaType === 'application/problem+json' &&
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    body.status === exchange.status;
  ctx.judge.verify(c.errorIsProblem, holds, () => ({
    received: describeResponse(exchange),
    documented: `application/problem+json with "status": ${exchange.status}`,
    exchange,
  }));
}

/** The Content-Type must be a media type documented for this status. */
export function contentTypeIsDocumented(exchange: Exchange, ctx: ResponseCheckContext): void {
  const content = documentedResponse(exchange)?.content;
  const types = Object.keys(content ?? {});
  const holds = types.length === 0 ? exchange.text.length === 0 : types.some((t) => matchesMediaType(t, exchange.mediaType));
  ctx.judge.verify(c.contentTypeDocumented, holds, () => ({
    received: exchange.headers.get('content-type') ?? '(no content-type)',
    documented: types.length ? types.join(' or ') : 'no body',
    exchange,
  }));
}

function matchesMediaType(documented: string, actual: string): boolean {
  const [type, sub] = documented.toLowerCase().split('/');
  const [aType, aSub] = actual.split('/');
  return (type === '*' || type === aType) && (sub === '*' || sub === aSub);
}

/** Required documented headers are present; every documented header present matches its schema. */
export function headersArePresent(exchange: Exchange, ctx: ResponseCheckContext): void {
  const headers = (documentedResponse(exchange)?.headers ?? {}) as Record<string, OpenAPIV3_1.HeaderObject>;
  const problems: string[] = [];
  for (const [name, header] of Object.entries(headers)) {
    const value = exchange.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`${name} is missing`);
      continue;
    }
    if (!header.schema) continue;
    const schema = header.schema as OpenAPIV3_1.SchemaObject;
    const typed = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
    const result = ctx.contract.validate(schema, typed);
    if (!result.valid) problems.push(`${name}: ${show(value)} ${result.errors.join('; ')}`);
  }
  ctx.judge.verify(c.headersPresent, problems.length === 0, () => ({
    received: problems.join('\n'),
    documented: Object.entries(headers)
      .map(([n, h]) => `${n}${h.required ? ' (required)' : ''}`)
      .join(', '),
    exchange,
  }));
}

/** The body must be JSON valid against the documented schema. */
export function bodyMatchesSchema(exchange: Exchange, ctx: ResponseCheckContext): void {
  const media = documentedResponse(exchange)?.content?.[exchange.mediaType];
  if (!media?.schema || !isJsonType(exchange.mediaType)) return;
  if (exchange.jsonError !== undefined) {
    ctx.judge.verify(c.bodyMatchesSchema, false, () => ({
      received: `not JSON (${exchange.jsonError}): ${show(exchange.text, RECORDED_BODY_LIMIT)}`,
      documented: `${exchange.mediaType} matching the schema`,
      exchange,
    }));
  }
  const result = ctx.contract.validate(media.schema, exchange.json);
  ctx.judge.verify(c.bodyMatchesSchema, result.valid, () => ({
    received: result.errors.join('\n'),
    documented: `valid against the contract's schema for a ${exchange.status} ${exchange.mediaType}${schemaName(media.schema!)}`,
    note: `body: ${show(exchange.json, RECORDED_BODY_LIMIT)}`,
    exchange,
  }));
}

function schemaName(schema: object): string {
  const title = (schema as { title?: string }).title;
  return title ? ` (${title})` : '';
}

/** Codes the contract's examples give for a documented error response. */
export function documentedErrorCodes(response: OpenAPIV3_1.ResponseObject | undefined): string[] {
  const codes = new Set<string>();
  for (const media of Object.values(response?.content ?? {})) {
    const values = [media.example, ...Object.values(media.examples ?? {}).map((e) => (e as OpenAPIV3_1.ExampleObject).value)];
    for (const v of values) if (typeof (v as { code?: unknown })?.code === 'string') codes.add((v as { code: string }).code);
  }
  return [...codes];
}

/** A problem's code must be one the contract shows for that status (when it shows any). */
export function errorCodeIsDocumented(exchange: Exchange, ctx: ResponseCheckContext): void {
  if (exchange.status < 400) return;
  const codes = documentedErrorCodes(documentedResponse(exchange));
  if (codes.length === 0) return;
  const code = (exchange.json as { code?: unknown }).code;
  ctx.judge.verify(c.errorCodeDocumented, typeof code === 'string' && codes.includes(code), () => ({
    received: `code ${show(code)}`,
    documented: `code ${codes.map((x) => JSON.stringify(x)).join(' or ')} for a ${exchange.status}`,
    exchange,
  }));
}

const SANE_REQUEST_ID = /^[\x21-\x7E]{1,200}$/;

/** A sane X-Request-Id sent by the suite must come back unchanged. */
export function requestIdIsEchoed(exchange: Exchange, ctx: ResponseCheckContext): void {
  if (ctx.judge.profile !== 'full' || !exchange.requestId || !SANE_REQUEST_ID.test(exchange.requestId)) return;
  const got = exchange.headers.get('x-request-id');
  ctx.judge.verify(c.requestIdEchoed, got === exchange.requestId, () => ({
    received: `X-Request-Id ${show(got)}`,
    documented: `X-Request-Id ${show(exchange.requestId)} (the one sent)`,
    exchange,
  }));
}
