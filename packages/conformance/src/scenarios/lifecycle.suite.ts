import { OCR_MIN_WORDS, scanWordsIn } from '../checks/document.js';
import { checks } from '../checks/index.js';
import { show } from '../definitions/describe.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { blankPdf, fixture, LEGIBLE_SCANS, part, randomWord, textPdf } from '../inputs/sample-files.js';
import { waitForTerminal } from '../judging/wait.js';
import { listed, uploaded, type WireFullDocument } from '../transport/api.js';

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

  kit.scenario(
    'a legible scan, an image and a PDF page without a text layer, completes with its words in content and is found by them',
    { profile: 'full', checks: [lifecycle.reachesTerminal, lifecycle.scanReadByOcr] },
    async (tools) => {
      const exchanges = await kit.uploadInBatches(
        LEGIBLE_SCANS.map((s) => part(`${kit.token()}-${s.file}`, fixture(s.file), s.contentType)),
      );
      for (const exchange of exchanges) expectStatus(upload.accepted, exchange, 202, 'legible scans');
      const sent = exchanges.flatMap(uploaded);
      const unread: string[] = [];
      for (const [i, scan] of LEGIBLE_SCANS.entries()) {
        const doc = await waitForTerminal(kit.api, sent[i]!.document_id, kit.config.timeoutMs, sent[i]);
        const read = await kit.api.get(doc.document_id);
        // A deployment that cannot read the scan says so ("A file that cannot be read fails"): its OCR is not judged.
        if (doc.status === 'failed') {
          unread.push(`${scan.file} failed (${show(doc.error)})`);
          continue;
        }
        const words = scanWordsIn(scan, doc.content);
        const term = [...words].sort((a, b) => b.length - a.length)[0];
        let search: { term: string; listed: boolean } | undefined;
        if (doc.status === 'completed' && term !== undefined && words.length >= OCR_MIN_WORDS) {
          const found = await kit.api.list({ search: term, limit: kit.facts.maxLimit });
          search = { term, listed: found.status === 200 && listed(found).documents.some((d) => d.document_id === doc.document_id) };
          kit.check(lifecycle.scanReadByOcr, { scan, doc, search }, found);
        } else kit.check(lifecycle.scanReadByOcr, { scan, doc }, read);
      }
      if (unread.length > 0 && !kit.judge.evaluated(lifecycle.scanReadByOcr))
        tools.notExercised(`the deployment read no scan: ${unread.join('; ')}`, [lifecycle.scanReadByOcr]);
    },
  );
});
