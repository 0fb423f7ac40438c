import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { type Check, defineCheck, type Finding, fail, type Profile } from '../definitions/check.js';
import { describeResponse, RECORDED_BODY_LIMIT, show } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import { documentsIn, type WireDocument } from '../transport/api.js';
import { documentedResponse } from '../transport/documented-target.js';
import { intermediaryAnswer } from '../transport/intermediary.js';
import { isReasonPhrase, reasonPhrases } from './reason-phrases.js';
import { forbiddenProperties, undocumentedProperties } from './schema-walk.js';

/** What every response check judges: one exchange, against the run's contract. */
export interface ResponseObservation {
  exchange: Exchange;
  contract: Contract;
  profile: Profile;
}

/** A check run on every response the suite receives, whatever the scenario, in catalog order. */
export interface ResponseCheck extends Check<ResponseObservation> {
  /** Whether the check says anything about this exchange (one it does not apply to is neither passed nor failed). */
  appliesTo(o: ResponseObservation): boolean;
  judge(o: ResponseObservation): Finding | undefined;
  /** A finding is a warning unless the run is --strict. */
  readonly warnUnlessStrict?: boolean;
}

function defineResponseCheck(check: Omit<ResponseCheck, 'area'>): ResponseCheck {
  return defineCheck({ ...check, area: 'response' }) as ResponseCheck;
}

const always = () => true;
const isError = ({ exchange }: ResponseObservation) => exchange.status >= 400;
const isJsonType = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');
const documentedSchema = (exchange: Exchange) => documentedResponse(exchange)?.content?.[exchange.mediaType]?.schema;

function matchesMediaType(documented: string, actual: string): boolean {
  const [type, sub] = documented.toLowerCase().split('/');
  const [aType, aSub] = actual.split('/');
  return (type === '*' || type === aType) && (sub === '*' || sub === aSub);
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

/** Every way one document's fields contradict its status (empty when consistent). */
export function stateProblems(doc: WireDocument): string[] {
  const problems: string[] = [];
  const hasContent = 'content' in doc;
  const created = Date.parse(doc.created_at);
  if (doc.status === 'processing') {
    if (doc.error !== null) problems.push('processing but error is set');
    if (doc.processed_at !== null) problems.push('processing but processed_at is set');
    if (hasContent && doc.content !== null) problems.push('processing but content is set');
  } else {
    if (doc.processed_at === null) problems.push(`${doc.status} but processed_at is null`);
    if (doc.status === 'completed' && doc.error !== null) problems.push('completed but error is set');
    if (doc.status === 'completed' && hasContent && typeof doc.content !== 'string') problems.push('completed but content is not a string');
    if (doc.status === 'failed' && doc.error === null) problems.push('failed but error is null');
    if (doc.status === 'failed' && hasContent && doc.content !== null) problems.push('failed but content is set');
  }
  if (Date.parse(doc.updated_at) < created) problems.push('updated_at is before created_at');
  if (doc.processed_at !== null && Date.parse(doc.processed_at) < created) problems.push('processed_at is before created_at');
  return problems;
}

/** How ajv reports a value where the schema is `false`. */
const FALSE_SCHEMA = 'boolean schema is false';

const SANE_REQUEST_ID = /^[\x21-\x7E]{1,200}$/;

/**
 * The checks run on every response, in the order they run: most telling first, so a failure names the
 * first property that broke. `http.responds` is judged by the HTTP layer itself (there is no response).
 */
export const responseChecks = {
  responds: defineCheck<{ reason: string; durationMs: number; timeoutMs: number }>({
    id: 'http.responds',
    profile: 'contract',
    area: 'response',
    description:
      'Every request gets an HTTP response within the request timeout: no hang, no reset (an idempotent request whose connection closed before any byte of its answer is sent again once: with a warning on a new connection, unremarked on a kept-alive one, which a server may close at any time; an upload whose answer was lost through a forward proxy is sent directly, or again through it, and an answer that arrives so is judged, with a warning naming the hop that lost it).',
    rules: ['request-id.every-response'],
    basis: 'HTTP/1.1 (RFC 9112): a server answers every request it reads; the contract describes only answers',
    judge: ({ reason, durationMs, timeoutMs }) =>
      fail(`no HTTP response after ${Math.round(durationMs)} ms: ${reason}`, `an HTTP response within ${timeoutMs} ms`),
  }),
  answeredByService: defineResponseCheck({
    id: 'response.answered-by-service',
    profile: 'contract',
    description:
      "The answer is the service's own, not one a proxy or gateway in front of it made itself (a known intermediary named by Server, Via or its HTML page, and no X-Request-Id of the service): such an answer is a warning naming the intermediary, a failure with --strict (one the run's own forward proxy made, HTTP_PROXY's, a warning even then).",
    rules: ['request-id.every-response', 'request-id.echoed'],
    warnUnlessStrict: true,
    appliesTo: isError,
    judge: ({ exchange }) => {
      const intermediary = intermediaryAnswer(exchange);
      return intermediary
        ? fail(
            `${describeResponse(exchange)}, made by ${intermediary.name} itself (${intermediary.evidence.join(', ')})`,
            "the service's answer, with its X-Request-Id (the request never reached the service: check the intermediary's configuration)",
          )
        : undefined;
    },
  }),
  boundedBody: defineCheck<{ tooLarge: { received: string; limit: number }; status: number; mediaType: string }>({
    id: 'response.bounded-body',
    profile: 'contract',
    area: 'response',
    description:
      "Every body, decoded, fits the contract's largest sensible answer (the body cap: the per-file limit, 8 to 64 MiB) and inflates at most 1000:1: an answer no client could hold is a defect.",
    rules: [],
    basis:
      "RFC 9110 §15 and the contract's schemas: every answer the contract describes is far smaller; a client cannot read an unbounded body",
    judge: ({ tooLarge, status, mediaType }) =>
      fail(
        `${status} ${mediaType || '(no content-type)'} with ${tooLarge.received} (read up to the cap, the rest never read)`,
        `a body of at most ${tooLarge.limit} bytes (--max-body-bytes; the largest answer the contract describes fits well within it)`,
      ),
  }),
  neverServerError: defineResponseCheck({
    id: 'response.never-5xx',
    profile: 'contract',
    description: 'No request the suite sends, valid or hostile, makes the target answer 5xx.',
    rules: ['errors.500-unexpected'],
    // A 503 is the contract's "wait `Retry-After` seconds, then retry" (ServiceUnavailable): judged as the
    // documented answer it is (judging/answers.ts judgeTransient), then waited out and resent.
    appliesTo: ({ exchange }) => exchange.status !== 503,
    // Any other 5xx is never acceptable, even where the contract documents a 500.
    judge: ({ exchange }) =>
      exchange.status < 500
        ? undefined
        : fail(describeResponse(exchange), 'a non-5xx answer (the request the suite sent must not break the server)'),
  }),
  statusDocumented: defineResponseCheck({
    id: 'response.status-documented',
    profile: 'contract',
    description: 'The status is one the contract documents for the operation (404/405 for unknown paths and methods).',
    rules: ['errors.validation-400', 'upload.accepted-202', 'errors.wrong-method-405', 'list.page-past-end'],
    appliesTo: always,
    judge: ({ exchange }) =>
      documentedResponse(exchange) !== undefined
        ? undefined
        : fail(describeResponse(exchange), `one of ${Object.keys(exchange.target.responses).join(', ')}`),
  }),
  errorIsProblem: defineResponseCheck({
    id: 'response.error-is-problem',
    profile: 'contract',
    description:
      'Every 4xx/5xx is application/problem+json with a JSON object body whose `status` equals the HTTP status and whose `type` is `about:blank`.',
    rules: ['errors.problem-json', 'problem.status-repeated', 'problem.type-about-blank', 'schema:Problem.type.default'],
    appliesTo: isError,
    judge: ({ exchange }) => {
      const body = exchange.json as { status?: unknown; type?: unknown } | undefined;
      const holds =
        exchange.mediaType === 'application/problem+json' &&
        typeof body === 'object' &&
        body !== null &&
        !Array.isArray(body) &&
        body.status === exchange.status &&
        body.type === 'about:blank';
      return holds
        ? undefined
        : fail(describeResponse(exchange), `application/problem+json with "status": ${exchange.status} and "type": "about:blank"`);
    },
  }),
  contentTypeDocumented: defineResponseCheck({
    id: 'response.content-type-documented',
    profile: 'contract',
    description: 'The Content-Type is a media type the contract documents for that status.',
    rules: ['errors.problem-json'],
    appliesTo: always,
    judge: ({ exchange }) => {
      const types = Object.keys(documentedResponse(exchange)?.content ?? {});
      const holds = types.length === 0 ? exchange.text.length === 0 : types.some((t) => matchesMediaType(t, exchange.mediaType));
      return holds
        ? undefined
        : fail(exchange.headers.get('content-type') ?? '(no content-type)', types.length ? types.join(' or ') : 'no body');
    },
  }),
  headersPresent: defineResponseCheck({
    id: 'response.headers-present',
    profile: 'contract',
    description: 'Every required documented header (X-Request-Id, Allow, ...) is present, and every documented header matches its schema.',
    rules: ['@response-header', 'request-id.every-response', 'transient.retry-after', 'errors.allow-header'],
    appliesTo: always,
    judge: ({ exchange, contract }) => {
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
        const result = contract.validate(schema, typed);
        if (!result.valid) problems.push(`${name}: ${show(value)} ${result.errors.join('; ')}`);
      }
      const documented = Object.entries(headers).map(([n, h]) => `${n}${h.required ? ' (required)' : ''}`);
      return problems.length === 0 ? undefined : fail(problems.join('\n'), documented.join(', '));
    },
  }),
  bodyMatchesSchema: defineResponseCheck({
    id: 'response.body-matches-schema',
    profile: 'contract',
    description: 'The body is valid JSON that validates against the documented schema (ajv, JSON Schema 2020-12, formats on).',
    rules: ['@response-body'],
    appliesTo: ({ exchange }) => documentedSchema(exchange) !== undefined && isJsonType(exchange.mediaType),
    judge: ({ exchange, contract }) => {
      if (exchange.jsonError !== undefined)
        return fail(
          `not JSON (${exchange.jsonError}): ${show(exchange.text, RECORDED_BODY_LIMIT)}`,
          `${exchange.mediaType} matching the schema`,
        );
      const result = contract.validate(documentedSchema(exchange)!, exchange.json);
      // A property the schema forbids by name (`false`) is response.no-forbidden-properties' to name.
      const errors = result.errors.filter((e) => !e.endsWith(FALSE_SCHEMA));
      return errors.length === 0
        ? undefined
        : fail(
            errors.join('\n'),
            `valid against the contract's schema for a ${exchange.status} ${exchange.mediaType}`,
            `body: ${show(exchange.json, RECORDED_BODY_LIMIT)}`,
          );
    },
  }),
  noForbiddenProperties: defineResponseCheck({
    id: 'response.no-forbidden-properties',
    profile: 'contract',
    description:
      'Bodies carry no property the contract forbids (a list item with `content`: the schema says `content: false`, the text "no `content`").',
    rules: ['list.no-content', 'schema:DocumentSummary.content.forbidden'],
    appliesTo: ({ exchange }) => documentedSchema(exchange) !== undefined && exchange.json !== undefined,
    judge: ({ exchange }) => {
      const found = forbiddenProperties(documentedSchema(exchange), exchange.json);
      return found.length === 0
        ? undefined
        : fail(`forbidden ${found.join(', ')}`, 'none of the properties the schema forbids (`false`): a list item never carries `content`');
    },
  }),
  errorCodeDocumented: defineResponseCheck({
    id: 'response.error-code-documented',
    profile: 'contract',
    description: "A problem's `code` is one the contract's examples give for that status, so clients can switch on it.",
    rules: ['errors.problem-json'],
    appliesTo: (o) => isError(o) && documentedErrorCodes(documentedResponse(o.exchange)).length > 0,
    judge: ({ exchange }) => {
      const codes = documentedErrorCodes(documentedResponse(exchange));
      const code = (exchange.json as { code?: unknown } | null | undefined)?.code;
      return typeof code === 'string' && codes.includes(code)
        ? undefined
        : fail(`code ${show(code)}`, `code ${codes.map((x) => JSON.stringify(x)).join(' or ')} for a ${exchange.status}`);
    },
  }),
  problemRefersToRequest: defineResponseCheck({
    id: 'response.problem-refers-to-request',
    // Full only, as the echo: a mock generating bodies (Prism --dynamic) makes up a request_id.
    profile: 'full',
    description: "A problem's optional `request_id` is the answer's X-Request-Id, so the id a user quotes is the one in the logs.",
    rules: ['problem.request-id'],
    appliesTo: (o) => isError(o) && typeof o.exchange.json === 'object' && o.exchange.json !== null,
    judge: ({ exchange }) => {
      const body = exchange.json as { request_id?: unknown };
      const header = exchange.headers.get('x-request-id');
      return body.request_id === undefined || body.request_id === header
        ? undefined
        : fail(`request_id ${show(body.request_id)}, X-Request-Id ${show(header)}`, 'request_id equal to the X-Request-Id of the answer');
    },
  }),
  problemWording: defineResponseCheck({
    id: 'response.problem-title-and-detail',
    // Full only: a mock generating bodies (Prism --dynamic) makes up both.
    profile: 'full',
    description:
      "A problem's `title` is the reason phrase of its status (RFC 9110's or an earlier RFC's name for it, in any case), and its `detail` says something (not empty).",
    rules: ['problem.title-reason-phrase', 'problem.detail-for-humans'],
    appliesTo: (o) => isError(o) && typeof o.exchange.json === 'object' && o.exchange.json !== null,
    judge: ({ exchange }) => {
      const { title, detail } = exchange.json as { title?: unknown; detail?: unknown };
      const wrong: string[] = [];
      // A title or detail missing or not a string is the schema's to name (response.body-matches-schema).
      if (typeof title === 'string' && !isReasonPhrase(exchange.status, title)) wrong.push(`title ${show(title)}`);
      if (typeof detail === 'string' && detail.trim() === '') wrong.push(`detail ${show(detail)}`);
      const phrases = reasonPhrases(exchange.status);
      return wrong.length === 0
        ? undefined
        : fail(
            `${wrong.join(', ')} in a ${exchange.status}`,
            `title ${phrases.length ? phrases.map((p) => JSON.stringify(p)).join(' or ') : 'not empty'}, and a detail that is not empty`,
          );
    },
  }),
  requestIdEchoed: defineResponseCheck({
    id: 'response.request-id-echoed',
    profile: 'full',
    description: 'The X-Request-Id the suite sends (a sane one) comes back unchanged, so logs can be joined.',
    rules: ['request-id.echoed'],
    appliesTo: ({ exchange }) => !!exchange.requestId && SANE_REQUEST_ID.test(exchange.requestId),
    judge: ({ exchange }) => {
      const got = exchange.headers.get('x-request-id');
      return got === exchange.requestId
        ? undefined
        : fail(`X-Request-Id ${show(got)}`, `X-Request-Id ${show(exchange.requestId)} (the one sent)`);
    },
  }),
  documentStateConsistent: defineResponseCheck({
    id: 'document.state-consistent',
    profile: 'contract',
    description:
      'Every document agrees with its status: `error` only when failed, `content` only when completed, `processed_at` null exactly while processing, timestamps not before `created_at`.',
    rules: ['document.error-only-failed', 'document.processed-at', 'lifecycle.run-ends', 'get.with-content'],
    appliesTo: ({ exchange }) => exchange.status < 300 && documentsIn(exchange.json).length > 0,
    judge: ({ exchange }) => {
      for (const doc of documentsIn(exchange.json)) {
        const problems = stateProblems(doc);
        if (problems.length > 0)
          return fail(
            `document ${doc.document_id}: ${problems.join('; ')}`,
            'error only when failed, content only when completed, processed_at null exactly while processing',
            show(doc, 600),
          );
      }
      return undefined;
    },
  }),
  noUndocumentedProperties: defineResponseCheck({
    id: 'response.no-undocumented-properties',
    profile: 'contract',
    description: 'Bodies carry no properties the schema does not declare (a warning; a failure with --strict).',
    rules: [],
    basis: "no rule: the schemas do not forbid undeclared properties, so only --strict (the run's own choice) makes this a failure",
    warnUnlessStrict: true,
    appliesTo: ({ exchange }) => documentedSchema(exchange) !== undefined && exchange.json !== undefined,
    judge: ({ exchange }) => {
      const extra = undocumentedProperties(documentedSchema(exchange), exchange.json);
      return extra.length === 0 ? undefined : fail(`undocumented ${extra.join(', ')}`, 'only the properties the schema declares');
    },
  }),
} as const;

/** The response checks in the order they run on each response (all but `http.responds`). */
export const responseCheckOrder: readonly ResponseCheck[] = Object.values(responseChecks).filter(
  (c): c is ResponseCheck => 'appliesTo' in c,
);
