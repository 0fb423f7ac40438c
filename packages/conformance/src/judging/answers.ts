import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { responseCheckOrder, responseChecks } from '../checks/response.js';
import type { AnyCheck, Profile } from '../definitions/check.js';
import { profileIncludes } from '../definitions/check.js';
import type { Exchange } from '../definitions/exchange.js';
import type { WarningRecord } from '../definitions/records.js';
import { ConformanceFailure } from '../definitions/verdict.js';
import { documentedResponse } from '../transport/documented-target.js';
import type { AnswerJudge, PreparedRequest } from '../transport/http.js';
import { IntermediaryAnswered, intermediaryAnswer } from '../transport/intermediary.js';
import { decodeBody, type HttpAnswer } from '../transport/transport.js';

/** Where the judging of answers records what held and what only warned (the file's judge). */
export interface AnswerVerdicts {
  readonly profile: Profile;
  pass(check: AnyCheck): void;
  warn(check: AnyCheck, warning: Omit<WarningRecord, 'check'>): void;
}

/**
 * Runs every response check on `exchange`, in catalog order: a check that does not apply is neither passed
 * nor failed, a finding is a failure (thrown) or, for checks that only warn, a warning unless --strict.
 * @example judgeResponse(exchange, { contract, strict: false, judge });
 */
export function judgeResponse(
  exchange: Exchange,
  { contract, strict, judge }: { contract: Contract; strict: boolean; judge: AnswerVerdicts },
): void {
  const observation = { exchange, contract, profile: judge.profile };
  for (const check of responseCheckOrder) {
    if (!profileIncludes(judge.profile, check.profile) || !check.appliesTo(observation)) continue;
    const finding = check.judge(observation);
    if (!finding) judge.pass(check);
    else if (check.warnUnlessStrict && !strict) {
      judge.warn(check, {
        operation: exchange.target.label,
        message: `${exchange.target.label}: ${finding.received} (a failure with --strict)`,
        ...(exchange.requestId ? { requestId: exchange.requestId } : {}),
      });
      // An intermediary's own answer says nothing about the service: nothing more is judged on it.
      if (check === responseChecks.answeredByService) throw new IntermediaryAnswered(intermediaryAnswer(exchange)!);
    } else throw new ConformanceFailure(check, { ...finding, exchange });
  }
}

/** A transient answer as an exchange, for judging and for the failure that shows it. */
function transientExchange(prepared: PreparedRequest, answer: HttpAnswer): Exchange {
  const mediaType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const { text } = decodeBody(answer.bytes, false);
  let json: unknown;
  try {
    json = mediaType.endsWith('json') ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    seq: prepared.seq,
    request: prepared.request,
    target: prepared.target,
    reproduce: prepared.reproduce,
    durationMs: answer.durationMs,
    ...(prepared.requestId !== undefined ? { requestId: prepared.requestId } : {}),
    status: answer.status,
    headers: answer.headers,
    mediaType,
    text,
    json,
  };
}

/** The statuses the contract documents for every operation as "wait `Retry-After` seconds, then retry". */
const DOCUMENTED_TRANSIENT = new Set([429, 503]);

/**
 * Judges a transient answer before it is waited out. The service's own `429` or `503` to an operation that
 * documents it (components.responses TooManyRequests, ServiceUnavailable) goes through every response check,
 * as any answer does: a problem with the documented `code`, and `Retry-After` in delay-seconds
 * (response.headers-present). An intermediary's own (transport/intermediary.ts) says nothing about the
 * service and stays a warning naming it; a gateway's 502/504, or a refusal of a request that names no
 * operation, is waited out unjudged.
 */
export function judgeTransient(
  judge: AnswerVerdicts,
  prepared: PreparedRequest,
  answer: HttpAnswer,
  contract: Contract,
  strict: boolean,
): void {
  if (!DOCUMENTED_TRANSIENT.has(answer.status) || prepared.target.kind !== 'operation') return;
  const exchange = transientExchange(prepared, answer);
  if (!documentedResponse(exchange)) return;
  const proxy = intermediaryAnswer(exchange);
  if (proxy) {
    judge.warn(responseChecks.answeredByService, {
      operation: exchange.target.label,
      message: `${exchange.target.label}: a ${answer.status} answered by ${proxy.name} itself, not by the service (${proxy.evidence.join(', ')}); waited out and resent`,
      ...(exchange.requestId ? { requestId: exchange.requestId } : {}),
    });
    return;
  }
  judgeResponse(exchange, { contract, strict, judge });
}

/**
 * The HTTP layer's part of a judge: `http.responds`, `http.bounded-body` and every response check, judged on
 * each answer as it arrives, before a scenario sees it; a forward proxy's own answer is a warning naming it.
 * @example const http = createHttp({ ...options, judge: { ...verdicts, ...judgeAnswers(verdicts) } });
 */
export function judgeAnswers(
  judge: AnswerVerdicts,
): Pick<AnswerJudge, 'noAnswer' | 'answered' | 'proxyAnswered' | 'reconnected' | 'lostOnTheWay' | 'transient'> {
  return {
    transient: (prepared, answer, { contract, strict }) => judgeTransient(judge, prepared, answer, contract, strict),
    noAnswer(exchange, reason, durationMs, timeoutMs) {
      const finding = responseChecks.responds.judge!({ reason, durationMs, timeoutMs });
      return new ConformanceFailure(responseChecks.responds, { ...finding!, exchange, noResponse: reason });
    },
    answered(exchange, { tooLarge, contract, strict }) {
      judge.pass(responseChecks.responds);
      if (tooLarge) {
        const finding = responseChecks.boundedBody.judge!({ tooLarge, status: exchange.status, mediaType: exchange.mediaType });
        throw new ConformanceFailure(responseChecks.boundedBody, { ...finding!, exchange });
      }
      judge.pass(responseChecks.boundedBody);
      judgeResponse(exchange, { contract, strict, judge });
    },
    proxyAnswered(exchange, proxy, said) {
      // The run's own forward proxy is no part of the deployment: a warning even with --strict.
      judge.warn(responseChecks.answeredByService, {
        operation: exchange.target.label,
        message: `${exchange.target.label}: the forward proxy ${proxy} ${said}; the service never saw the request (the proxy's configuration, not the service)`,
        ...(exchange.requestId ? { requestId: exchange.requestId } : {}),
      });
      return new IntermediaryAnswered({ name: `the forward proxy ${proxy}`, evidence: [said] });
    },
    lostOnTheWay({ target, requestId }, said) {
      judge.warn(responseChecks.responds, {
        operation: target.label,
        message: `${target.label}: ${said}`,
        ...(requestId ? { requestId } : {}),
      });
    },
    reconnected({ target, requestId }, reason) {
      judge.warn(responseChecks.responds, {
        operation: target.label,
        message: `${target.label}: the connection closed before any byte of the answer (${reason}); the request was sent again once (RFC 9110 §9.2.2)`,
        ...(requestId ? { requestId } : {}),
      });
    },
  };
}
