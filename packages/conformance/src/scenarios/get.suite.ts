import { checks } from '../checks/index.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { part, textPdf } from '../inputs/sample-files.js';
import { waitForTerminal } from '../judging/wait.js';
import { INVALID_DOCUMENT_IDS } from '../rules/contract-facts.js';
import { documentOf, uploaded } from '../transport/api.js';

const kit = await openSuite('get');
const { expectStatus, expectProblem, expectNamesParameter } = kit;
const { get, upload } = checks;
const pdf = textPdf(['docproc conformance', 'get check']);

const created = once(async () => {
  const exchange = await kit.api.upload([part(`${kit.token()}-read-me.pdf`, pdf)]);
  expectStatus(upload.accepted, exchange, 202, 'a valid PDF');
  // A 202 body holds at least one document (the schema says so, and the response checks hold it to that).
  return uploaded(exchange)[0]!;
});

describe('getDocument', () => {
  kit.scenario(
    'reading the document an upload just returned is a 200',
    { profile: 'contract', checks: [get.returnsDocument] },
    async () => {
      const doc = await created();
      expectStatus(get.returnsDocument, await kit.api.get(doc.document_id), 200, `document ${doc.document_id} was just uploaded`);
    },
  );

  kit.scenario(
    'it equals what the upload returned, before and after processing',
    { profile: 'full', checks: [get.matchesUpload] },
    async () => {
      const sent = await created();
      const now = await kit.api.get(sent.document_id);
      expectStatus(get.returnsDocument, now, 200, 'the document was just uploaded');
      kit.check(get.matchesUpload, { when: 'read at once', read: documentOf(now), sent }, now);
      const done = await waitForTerminal(kit.api, sent.document_id, kit.config.timeoutMs);
      const after = await kit.api.get(sent.document_id);
      expectStatus(get.returnsDocument, after, 200, 'the document exists');
      kit.check(get.matchesUpload, { when: `read once ${done.status}`, read: documentOf(after), sent }, after);
    },
  );

  kit.scenario('an id that does not exist is a 404 not_found', { profile: 'full', checks: [get.unknownId] }, async () => {
    expectProblem(get.unknownId, await kit.api.get(Number.MAX_SAFE_INTEGER), 404, 'not_found', 'no document has this id');
  });
});

describe('getDocument validates the id', () => {
  for (const id of INVALID_DOCUMENT_IDS) {
    kit.scenario(`id ${id} is a 400`, { profile: 'contract', checks: [get.rejectsInvalidId] }, async () => {
      const exchange = await kit.api.get(id);
      expectStatus(get.rejectsInvalidId, exchange, 400, 'not a positive integer within 2^53-1');
      if (kit.profile === 'full') expectNamesParameter(exchange, { in: 'path', name: 'document_id' });
    });
  }
});
