import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { responseCheckOrder, responseChecks } from '../checks/response.js';
import type { Exchange } from '../definitions/exchange.js';
import type { Verdict } from './verdicts.js';

// The response checks that read only the status and headers: all a body over the judge's cap allows.
const BODY_FREE = new Set([
  responseChecks.neverServerError,
  responseChecks.statusDocumented,
  responseChecks.headersPresent,
  responseChecks.requestIdEchoed,
  responseChecks.answeredByService,
]);

/**
 * The conformance suite's response checks on one exchange, in the suite's order and with its profile (full):
 * every finding is kept (the suite stops at a scenario's first), checks that warn unless --strict warn, and
 * an intermediary's own answer ends the judging as it does in the suite. `bodyJudged` false keeps to the
 * checks that read no body.
 * @example judgeResponse(exchange, { contract, strict: false, bodyJudged: true }).filter((v) => v.kind === 'violation')
 */
export function judgeResponse(
  exchange: Exchange,
  { contract, strict, bodyJudged }: { contract: Contract; strict: boolean; bodyJudged: boolean },
): Verdict[] {
  const observation = { exchange, contract, profile: 'full' as const };
  const verdicts: Verdict[] = [];
  for (const check of responseCheckOrder) {
    if (!bodyJudged && !BODY_FREE.has(check)) continue;
    if (!check.appliesTo(observation)) continue;
    const finding = check.judge(observation);
    if (!finding) verdicts.push({ kind: 'pass', check });
    else if (check.warnUnlessStrict && !strict) {
      verdicts.push({ kind: 'warning', check, finding });
      if (check === responseChecks.answeredByService) break;
    } else {
      verdicts.push({ kind: 'violation', check, finding, side: 'service' });
      if (check === responseChecks.answeredByService) break;
    }
  }
  return verdicts;
}
