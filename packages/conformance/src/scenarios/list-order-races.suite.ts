import { checks } from '../checks/index.js';
import { describe, openSuite } from '../harness/suite.js';
import { part, textPdf } from '../inputs/sample-files.js';
import { listed, type WireDocument } from '../transport/api.js';

const kit = await openSuite('list', 'list-order-races');
const { list } = checks;
const pdf = textPdf(['docproc conformance', 'list order race']);
const BURST = 8;
const ROUNDS = 5;

/** Two documents whose ids and creation times disagree: the later id was created at an earlier instant. */
function crossed(documents: WireDocument[]): [WireDocument, WireDocument] | undefined {
  for (const a of documents)
    for (const b of documents) if (a.document_id > b.document_id && Date.parse(a.created_at) < Date.parse(b.created_at)) return [a, b];
  return undefined;
}

/**
 * `documents` with each run of equal `created_at` put in the order the contract gives ties (id descending),
 * the rest left as listed: what is judged here is the order across instants. A deployment's timestamps may
 * be coarser than the clock that ordered its rows (whole seconds shown, milliseconds kept), so how it shows
 * its ties is not this scenario's to judge.
 */
function tiesByIdDescending(documents: WireDocument[]): WireDocument[] {
  const out: WireDocument[] = [];
  for (let i = 0; i < documents.length; ) {
    let j = i + 1;
    while (j < documents.length && documents[j]!.created_at === documents[i]!.created_at) j++;
    out.push(...documents.slice(i, j).sort((a, b) => b.document_id - a.document_id));
    i = j;
  }
  return out;
}

describe('listDocuments order when uploads arrive together', () => {
  kit.scenario(
    'uploads sent at once, half under a key, are listed newest first even where a later id was created earlier',
    { profile: 'full', checks: [list.newestFirst] },
    async (tools) => {
      const t = kit.token('order-race');
      // A service may stamp an upload before it takes its id (an upload under a key is checked against its
      // earlier uploads in between), so uploads arriving together can get ids out of creation order: the
      // order the contract states must still hold. Only a burst that produced such a pair reaches that state.
      for (let round = 1; round <= ROUNDS; round++) {
        const sent = Array.from({ length: BURST }, (_, i) =>
          kit.api.upload(
            [part(`${t}-r${round}-${i}.pdf`, pdf)],
            i % 2 === 0 ? { headers: { 'Idempotency-Key': `${t}-r${round}-k${i}` } } : {},
          ),
        );
        await Promise.all(sent);
        const search = await kit.api.list({ search: t, limit: kit.facts.maxLimit });
        if (search.status !== 200) return tools.notExercised(`the list of the burst's documents was answered ${search.status}`);
        const { documents } = listed(search);
        // A document listed twice breaks the order whatever the burst made; otherwise the order is proven only
        // where a pair crossed (timestamps a deployment writes coarser than its clock may tie, and then the
        // shown order of tied ones is not the suite's to judge).
        const twice = new Set(documents.map((d) => d.document_id)).size !== documents.length;
        if (!crossed(documents) && !twice) continue;
        kit.check(list.newestFirst, { documents: tiesByIdDescending(documents) }, search);
        return;
      }
      tools.notExercised(
        `no burst of ${BURST} uploads (${ROUNDS} tried) gave a later id an earlier created_at, so the list never had to order such a pair`,
      );
    },
  );
});
