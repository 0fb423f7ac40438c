import { checks } from '../checks/index.js';
import { describeResponse } from '../definitions/describe.js';
import { describe, once, openSuite, type ScenarioTools } from '../harness/suite.js';
import { part, randomWord, textPdf } from '../inputs/sample-files.js';
import { waitForTerminal } from '../judging/wait.js';
import { idsOf, listed, uploaded } from '../transport/api.js';

const kit = await openSuite('tenancy');
const { expectStatus, expectProblem } = kit;
const { tenancy, upload } = checks;
const word = randomWord();
const wordPdf = textPdf(['docproc conformance', `Private word ${word}`]);

/** A completed document of the first key, so both its filename and its text are searchable. */
const privateDoc = once(async () => {
  const exchange = await kit.api.upload([part(`${kit.token()}-private.pdf`, wordPdf)]);
  expectStatus(upload.accepted, exchange, 202, 'a valid PDF');
  // A 202 body holds at least one document (the schema says so, and the response checks hold it to that).
  const sent = uploaded(exchange)[0]!;
  return waitForTerminal(kit.api, sent.document_id, kit.config.timeoutMs, sent);
});

function needSecondKey(tools: ScenarioTools): void {
  if (kit.config.secondApiKey === undefined) tools.notExercised("pass --second-api-key (another tenant's key) to exercise it");
}

describe('tenants are isolated', () => {
  kit.scenario(
    "another key's document is a 404 on read and on retry",
    { profile: 'full', checks: [tenancy.documentHidden] },
    async (tools) => {
      needSecondKey(tools);
      const doc = await privateDoc();
      const other = kit.as('secondary');
      expectProblem(
        tenancy.documentHidden,
        await other.get(doc.document_id),
        404,
        'not_found',
        "another tenant's document is not found, never forbidden",
      );
      expectProblem(
        tenancy.documentHidden,
        await other.retry(doc.document_id),
        404,
        'not_found',
        "another tenant's document cannot be retried",
      );
    },
  );

  kit.scenario(
    "another key's document never shows in lists, filename searches or content searches",
    { profile: 'full', checks: [tenancy.listHidden] },
    async (tools) => {
      needSecondKey(tools);
      const doc = await privateDoc();
      // The owner must find it by the word, or not finding it with the other key would prove nothing.
      const own = await kit.api.list({ search: word });
      if (own.status !== 200 || !listed(own).documents.some((d) => d.document_id === doc.document_id)) {
        return tools.notExercised('the owner cannot find the document by its word either (see list.search-by-content)');
      }
      const queries: Array<Record<string, string | number>> = [{ search: kit.token() }, { search: word }, { limit: kit.facts.maxLimit }];
      for (const query of queries) {
        const exchange = await kit.as('secondary').list(query);
        kit.require(tenancy.listHidden, exchange.status === 200, () => ({
          received: describeResponse(exchange),
          expected: '200 (a valid list request)',
          exchange,
        }));
        kit.check(tenancy.listHidden, { documents: listed(exchange).documents, hidden: doc.document_id, token: kit.token() }, exchange);
      }
    },
  );

  kit.scenario("totals count only the key's own documents", { profile: 'full', checks: [tenancy.totalsScoped] }, async (tools) => {
    needSecondKey(tools);
    const doc = await privateDoc();
    const other = kit.as('secondary');
    // A search only the first key's document matches: the other key must see an empty result, totals included.
    const search = await other.list({ search: kit.token() });
    kit.require(tenancy.totalsScoped, search.status === 200, () => ({
      received: describeResponse(search),
      expected: '200 (a valid list request)',
      exchange: search,
    }));
    kit.check(tenancy.totalsScoped, { kind: 'search', list: listed(search), token: kit.token(), hidden: doc.document_id }, search);
    // Another upload by the first key must not move the other key's total for a term that upload matches.
    // Scoped by that term: other scenario files (the model run, the races) upload with the other key
    // meanwhile, and its unfiltered total rightly moves with them.
    const scoped = { limit: 1, search: kit.token('totals') };
    const before = await other.list(scoped);
    const upload = await kit.api.upload([part(`${kit.token('totals')}.pdf`, wordPdf)]);
    if (upload.status !== 202)
      return tools.notExercised(`the first key's upload was not accepted (${upload.status})`, [tenancy.totalsScoped]);
    const after = await other.list(scoped);
    kit.require(tenancy.totalsScoped, before.status === 200 && after.status === 200, () => ({
      received: describeResponse(after.status === 200 ? before : after),
      expected: '200 (a valid list request)',
      exchange: after,
    }));
    kit.check(tenancy.totalsScoped, { kind: 'after-upload', before: listed(before).pagination, after: listed(after).pagination }, after);
  });

  kit.scenario(
    "the other key's Idempotency-Key never hands out the first key's documents",
    { profile: 'full', checks: [tenancy.idempotencyKeyScoped] },
    async (tools) => {
      needSecondKey(tools);
      const headers = { 'Idempotency-Key': `${kit.token('shared')}-key` };
      const parts = [part(`${kit.token('shared')}.pdf`, wordPdf)];
      const first = await kit.api.upload(parts, { headers });
      if (first.status !== 202) return tools.notExercised(`the first key's upload was not accepted (${first.status})`);
      const second = await kit.as('secondary').upload(parts, { headers });
      const observation = { status: second.status, mine: idsOf(uploaded(first)), theirs: idsOf(uploaded(second)), parts: parts.length };
      kit.check(tenancy.idempotencyKeyScoped, observation, second);
    },
  );
});
