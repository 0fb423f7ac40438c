import { checks } from '../checks/index.js';
import { documentStateIsConsistent } from './document-state.js';
import type { Exchange } from './exchange.js';
import {
  bodyMatchesSchema,
  contentTypeIsDocumented,
  documentedResponse,
  errorCodeIsDocumented,
  errorIsProblemJson,
  headersArePresent,
  neverServerError,
  type ResponseCheckContext,
  requestIdIsEchoed,
  statusIsDocumented,
} from './response-checks.js';
import { undocumentedProperties } from './schema-walk.js';

/** Undocumented properties warn (the summary prints each once, the report keeps every one) unless the run is strict. */
export function noUndocumentedProperties(exchange: Exchange, ctx: ResponseCheckContext): void {
  const schema = documentedResponse(exchange)?.content?.[exchange.mediaType]?.schema;
  if (!schema || exchange.json === undefined) return;
  const extra = undocumentedProperties(schema, exchange.json);
  const check = checks.response.noUndocumentedProperties;
  if (extra.length === 0) {
    ctx.judge.pass(check);
    return;
  }
  const details = () => ({ received: `properties ${extra.join(', ')}`, documented: 'only the properties the schema declares', exchange });
  if (ctx.strict) {
    ctx.judge.verify(check, false, details);
    return;
  }
  const message = `${exchange.target.label}: undocumented ${extra.join(', ')} (a failure with --strict)`;
  ctx.judge.warn(check, { operation: exchange.target.label, message, ...(exchange.requestId ? { requestId: exchange.requestId } : {}) });
}

/**
 * Runs every response check, most telling first, so a failure names the first property that broke.
 * @example checkResponse(exchange, { contract, strict: false, judge });
 */
export function checkResponse(exchange: Exchange, ctx: ResponseCheckContext): void {
  neverServerError(exchange, ctx);
  statusIsDocumented(exchange, ctx);
  errorIsProblemJson(exchange, ctx);
  contentTypeIsDocumented(exchange, ctx);
  headersArePresent(exchange, ctx);
  bodyMatchesSchema(exchange, ctx);
  errorCodeIsDocumented(exchange, ctx);
  requestIdIsEchoed(exchange, ctx);
  documentStateIsConsistent(exchange, ctx.judge);
  noUndocumentedProperties(exchange, ctx);
}
