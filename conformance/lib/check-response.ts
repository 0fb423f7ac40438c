import { checks } from './checks/index.js';
import { documentStateIsConsistent } from './document-state.js';
import type { Exchange } from './exchange.js';
import { recordPass, recordWarning } from './recorder.js';
import {
  bodyMatchesSchema,
  contentTypeIsDocumented,
  documentedResponse,
  errorCodeIsDocumented,
  errorIsProblemJson,
  headersArePresent,
  neverServerError,
  requestIdIsEchoed,
  statusIsDocumented,
  type ResponseCheckContext,
} from './response-checks.js';
import { undocumentedProperties } from './schema-walk.js';
import { verify } from './verify.js';

const printed = new Set<string>();

/** Undocumented properties warn (printed once per worker, every one kept in the report) unless the run is strict. */
export function noUndocumentedProperties(exchange: Exchange, ctx: ResponseCheckContext): void {
  const schema = documentedResponse(exchange)?.content?.[exchange.mediaType]?.schema;
  if (!schema || exchange.json === undefined) return;
  const extra = undocumentedProperties(schema, exchange.json);
  const check = checks.response.noUndocumentedProperties;
  if (extra.length === 0) return recordPass(check);
  const details = () => ({ received: `properties ${extra.join(', ')}`, documented: 'only the properties the schema declares', exchange });
  if (ctx.strict) return verify(check, false, details);
  const message = `${exchange.target.label}: undocumented ${extra.join(', ')} (a failure with --strict)`;
  recordWarning(check, { operation: exchange.target.label, message, ...(exchange.requestId ? { requestId: exchange.requestId } : {}) });
  if (!printed.has(message)) console.warn(`warning [${check.id}] ${message}`);
  printed.add(message);
}

/**
 * Runs every response check, most telling first, so a failure names the first property that broke.
 * @example checkResponse(exchange, { contract, strict: false });
 */
export function checkResponse(exchange: Exchange, ctx: ResponseCheckContext): void {
  neverServerError(exchange);
  statusIsDocumented(exchange);
  errorIsProblemJson(exchange);
  contentTypeIsDocumented(exchange);
  headersArePresent(exchange, ctx);
  bodyMatchesSchema(exchange, ctx);
  errorCodeIsDocumented(exchange);
  requestIdIsEchoed(exchange);
  documentStateIsConsistent(exchange);
  noUndocumentedProperties(exchange, ctx);
}
