import type { NothingStored } from '../checks/answer-judge.js';
import type { Check } from '../checks/index.js';
import { part } from '../inputs/sample-files.js';
import { listed, uploaded } from '../transport/api.js';
import type { ScenarioTools, SuiteKit } from './suite.js';

/**
 * Proves that a rejected request created no document named with `token`: uploads a control document under
 * the same token, then searches for the token, which must find the control and nothing else. Finding the
 * control is what makes "nothing else" mean something (a search that finds nothing proves nothing). `kept`:
 * documents under the token that accepted requests made (a form a service may read either way).
 * @example await expectNothingCreated(kit, tools, checks.upload.allOrNothing, token, pdf);
 */
export async function expectNothingCreated(
  kit: SuiteKit,
  tools: ScenarioTools,
  check: Check<NothingStored>,
  token: string,
  pdf: Uint8Array,
  kept: readonly number[] = [],
): Promise<void> {
  const control = await kit.api.upload([part(`${token}-control.pdf`, pdf)]);
  const [doc] = uploaded(control);
  if (!doc) return tools.notExercised(`the control upload was not accepted (${control.status}), so absence cannot be proven`, [check]);
  const search = await kit.api.list({ search: token, limit: kit.facts.maxLimit });
  const found = search.status === 200 ? listed(search).documents : [];
  if (!found.some((d) => d.document_id === doc.document_id)) {
    return tools.notExercised(
      `a search for "${token}" did not find the control document ${doc.document_id} (see list.search-by-filename), so absence cannot be proven`,
      [check],
    );
  }
  const others = found.filter((d) => d.document_id !== doc.document_id && !kept.includes(d.document_id));
  kit.check(check, { kind: 'nothing-stored', others }, search);
}
