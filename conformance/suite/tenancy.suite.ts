import { describe } from 'vitest';
import { listed, uploaded } from '../lib/api.js';
import { checks } from '../lib/checks/index.js';
import { expectProblem, expectStatus } from '../lib/expect.js';
import { part, randomWord, textPdf } from '../lib/files.js';
import { once, openSuite, type ScenarioTools } from '../lib/suite.js';
import { verify } from '../lib/verify.js';
import { waitForTerminal } from '../lib/wait.js';

const kit = await openSuite('tenancy');
const { tenancy, upload } = checks;
const word = randomWord();
const wordPdf = await textPdf(['docproc conformance', `Private word ${word}`]);

/** A completed document of the first key, so both its filename and its text are searchable. */
const privateDoc = once(async () => {
  const exchange = await kit.api.upload([part(`${kit.token()}-private.pdf`, wordPdf)]);
  expectStatus(upload.accepted, exchange, 202, 'a valid PDF');
  return waitForTerminal(kit.api, uploaded(exchange)[0]!.document_id, kit.config.timeoutMs);
});

function needSecondKey(tools: ScenarioTools): void {
  if (kit.config.secondApiKey === undefined) tools.notExercised("pass --second-api-key (another tenant's key) to exercise it");
}

describe('tenants are isolated', () => {
  kit.scenario("another key's document is a 404 on read and on retry", { profile: 'full', checks: [tenancy.documentHidden] }, async (tools) => {
    needSecondKey(tools);
    const doc = await privateDoc();
    const other = kit.as('secondary');
    expectProblem(tenancy.documentHidden, await other.get(doc.document_id), 404, 'not_found', "another tenant's document is not found, never forbidden");
    expectProblem(tenancy.documentHidden, await other.retry(doc.document_id), 404, 'not_found', "another tenant's document cannot be retried");
  });

  kit.scenario("another key's document never shows in lists, filename searches or content searches", { profile: 'full', checks: [tenancy.listHidden] }, async (tools) => {
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
      expectStatus(tenancy.listHidden, exchange, 200, 'a valid list request');
      const leaked = listed(exchange).documents.filter((d) => d.document_id === doc.document_id || d.filename.includes(kit.token()));
      verify(tenancy.listHidden, leaked.length === 0, () => ({
        received: `the other key sees ${leaked.map((d) => `${d.document_id} ${JSON.stringify(d.filename)}`).join(', ')}`,
        documented: `no trace of document ${doc.document_id}`,
        exchange,
      }));
    }
  });
});
