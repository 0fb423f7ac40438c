import { describe } from 'vitest';
import { checks } from '../checks/index.js';
import { documentOf, uploaded, type WireFullDocument } from '../kit/api.js';
import { INVALID_DOCUMENT_IDS } from '../kit/contract-facts.js';
import { show } from '../kit/describe.js';
import type { Exchange } from '../kit/exchange.js';
import { part, textPdf } from '../kit/files.js';
import { once, openSuite } from '../kit/suite.js';
import { waitForTerminal } from '../kit/wait.js';

const kit = await openSuite('get');
const { verify, expectStatus, expectProblem, expectNamesParameter } = kit;
const { get, upload } = checks;
const pdf = await textPdf(['docproc conformance', 'get check']);
// Fields an upload fixes for good; processing may change only status, content, error and the timestamps.
const FIXED = ['document_id', 'filename', 'content_type', 'size_bytes', 'created_at', 'attempts'] as const;

const created = once(async () => {
  const exchange = await kit.api.upload([part(`${kit.token()}-read-me.pdf`, pdf)]);
  expectStatus(upload.accepted, exchange, 202, 'a valid PDF');
  return uploaded(exchange)[0]!;
});

function expectSameFields(exchange: Exchange, read: WireFullDocument, sent: WireFullDocument, when: string): void {
  const pick = (d: WireFullDocument) => Object.fromEntries(FIXED.map((k) => [k, d[k]]));
  verify(get.matchesUpload, JSON.stringify(pick(read)) === JSON.stringify(pick(sent)), () => ({
    received: `${when}: ${show(pick(read))}`,
    expected: `as the upload returned: ${show(pick(sent))}`,
    exchange,
  }));
}

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
      expectSameFields(now, documentOf(now), sent, 'read at once');
      const done = await waitForTerminal(kit.api, sent.document_id, kit.config.timeoutMs);
      const after = await kit.api.get(sent.document_id);
      expectStatus(get.returnsDocument, after, 200, 'the document exists');
      expectSameFields(after, documentOf(after), sent, `read once ${done.status}`);
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
