import { checks } from '../checks/index.js';
import { show } from '../definitions/describe.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { blankPdf, fixture, part, randomWord, textPdf } from '../inputs/sample-files.js';
import { waitForTerminal } from '../judging/wait.js';
import { uploaded, type WireFullDocument } from '../transport/api.js';

const kit = await openSuite('lifecycle');
const { expectStatus } = kit;
const { lifecycle, upload } = checks;
// Proves extraction really ran: this word exists nowhere but in this PDF's text layer.
const word = randomWord();
const wordPdf = textPdf(['docproc conformance', `Lifecycle word ${word}`]);

const uploadedPair = once(async () => {
  const exchanges = await kit.uploadInBatches([
    part(`${kit.token()}-readable.pdf`, wordPdf),
    part(`${kit.token()}-damaged.pdf`, fixture('corrupt.pdf')),
  ]);
  for (const exchange of exchanges) expectStatus(upload.accepted, exchange, 202, 'valid files');
  const docs = exchanges.flatMap(uploaded);
  kit.require(upload.onePerPart, docs.length === 2, () => ({
    received: `${docs.length} document(s): ${show(docs.map((d) => d.filename))}`,
    expected: 'one document per part: 2',
    exchange: exchanges[exchanges.length - 1],
  }));
  const [readable, damaged] = docs as [WireFullDocument, WireFullDocument];
  return { readable, damaged };
});

describe('processing', () => {
  kit.scenario(
    'a readable PDF completes with its text in content',
    { profile: 'full', checks: [lifecycle.reachesTerminal, lifecycle.completedHasContent] },
    async () => {
      const { readable } = await uploadedPair();
      const doc = await waitForTerminal(kit.api, readable.document_id, kit.config.timeoutMs, readable);
      const read = await kit.api.get(readable.document_id);
      kit.check(lifecycle.completedHasContent, { doc, word }, read);
    },
  );

  kit.scenario(
    'a damaged PDF fails with error.code unreadable_document',
    { profile: 'full', checks: [lifecycle.reachesTerminal, lifecycle.failedHasError] },
    async () => {
      const { damaged } = await uploadedPair();
      const doc = await waitForTerminal(kit.api, damaged.document_id, kit.config.timeoutMs, damaged);
      const read = await kit.api.get(damaged.document_id);
      kit.check(lifecycle.failedHasError, { doc }, read);
    },
  );

  kit.scenario(
    'a blank PDF completes with empty content',
    { profile: 'full', checks: [lifecycle.reachesTerminal, lifecycle.noTextCompletesEmpty] },
    async () => {
      const exchange = await kit.api.upload([part(`${kit.token()}-blank.pdf`, blankPdf())]);
      expectStatus(upload.accepted, exchange, 202, 'a valid PDF');
      // A 202 body holds at least one document (the schema says so, and the response checks hold it to that).
      const sent = uploaded(exchange)[0]!;
      const doc = await waitForTerminal(kit.api, sent.document_id, kit.config.timeoutMs, sent);
      kit.check(lifecycle.noTextCompletesEmpty, { doc }, exchange);
    },
  );
});
