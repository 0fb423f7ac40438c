import { type Check, checks } from '../checks/index.js';
import { describeResponse } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { fixture, part, randomWord, textPdf } from '../inputs/sample-files.js';
import { waitForAll } from '../judging/wait.js';
import type { WireDocument } from '../transport/api.js';
import { listed, uploaded, type WireFullDocument } from '../transport/api.js';

const kit = await openSuite('list', 'list-filters');
const { expectStatus } = kit;
const { list, upload } = checks;
const token = kit.token('filters');
// The word exists only inside the text layer of one PDF: no filename and no other document has it.
const word = randomWord();
// A term as short as the contract allows (it has no minimum beyond one character) that no other document of
// the run holds: a full-text index with a minimum token length would never find it in the text.
const shortTerm = '¶§';
const wordPdf = textPdf(['docproc conformance', `Reference word ${word}`, `Mark ${shortTerm}`]);
const plainPdf = textPdf(['docproc conformance', 'filter check']);
// Characters that SQL LIKE, regular expressions and URL encoding treat specially, matched literally.
const literalStem = `${token}-e 100%_(x)+[y]`;
// Letters whose case folding is not their lower case: ẞ folds to ss, İ (by the contract's exception) to i,
// and Σ to σ wherever it stands (lower-casing writes a word's last Σ as final ς: a term ending in σ must
// still find ΟΔΟΣΑ).
const foldedName = `${token}-STRAẞE-İSTANBUL-ΟΔΟΣΑ.pdf`;
// Accents are not folded away: `resume` must not find it.
const accentedStem = `${token}-résumé`;

/** PDFs that complete, damaged files that fail, one PDF with the unique word and one with a tricky name. */
const seed = once(async () => {
  const parts = [
    part(`${token}-a.pdf`, wordPdf),
    part(`${token}-b-damaged.pdf`, fixture('corrupt.pdf')),
    part(`${token}-c.pdf`, plainPdf),
    part(`${token}-d-damaged.png`, fixture('truncated.png'), 'image/png'),
    part(`${literalStem}.pdf`, plainPdf),
    part(foldedName, plainPdf),
    part(`${accentedStem}.pdf`, plainPdf),
  ];
  const docs: WireFullDocument[] = [];
  for (const exchange of await kit.uploadInBatches(parts)) {
    expectStatus(upload.accepted, exchange, 202, 'valid files');
    docs.push(...uploaded(exchange));
  }
  return docs;
});
const finished = once(async () => waitForAll(kit.api, await seed(), kit.config.timeoutMs));

/** Every document matching `query` (one page of the maximum size: the seed is far smaller). */
async function matching(check: Check, query: Record<string, string>): Promise<{ exchange: Exchange; documents: WireDocument[] }> {
  const exchange = await kit.api.list({ ...query, limit: kit.facts.maxLimit });
  kit.require(check, exchange.status === 200, () => ({
    received: describeResponse(exchange),
    expected: '200 (a valid list request)',
    exchange,
  }));
  return { exchange, documents: listed(exchange).documents };
}

/** Whether a list's first page holds min(total, limit) documents. */
function pageAgreesWithTotal(exchange: Exchange): boolean {
  const { documents, pagination } = listed(exchange);
  return documents.length === Math.min(pagination?.total, pagination?.limit);
}

describe('listDocuments filters', () => {
  kit.scenario(
    'status_filter keeps exactly the documents in that status, for each status',
    { profile: 'full', checks: [list.statusFilter] },
    async (tools) => {
      const docs = await finished();
      if (new Set(docs.map((d) => d.status)).size < 2) {
        return tools.notExercised(`every seed document ended ${docs[0]?.status}, so a filter cannot be told from no filter`);
      }
      for (const status of kit.facts.statuses) {
        const { exchange, documents } = await matching(list.statusFilter, { status_filter: status, search: token });
        const want = docs.filter((d) => d.status === status);
        kit.check(list.statusFilter, { status, documents, want, what: `the run's ${status} documents (as read one by one)` }, exchange);
      }
      // Alone, the filter lists the whole tenant, which others may share: only what one answer says of
      // itself is judged. A count and a page read apart may see a document change status in between, so a
      // mismatch is asked again before it is judged.
      for (const status of kit.facts.statuses) {
        let answer = await matching(list.statusFilter, { status_filter: status });
        for (let again = 0; again < 2 && !pageAgreesWithTotal(answer.exchange); again++)
          answer = await matching(list.statusFilter, { status_filter: status });
        const { pagination } = listed(answer.exchange);
        // A body without numbers there is response.body-matches-schema's to judge.
        if (typeof pagination?.total !== 'number' || typeof pagination.limit !== 'number') continue;
        kit.check(list.statusFilter, { kind: 'alone', status, count: answer.documents.length, pagination }, answer.exchange);
      }
    },
  );

  kit.scenario(
    "search finds the run's documents by a filename token, in any letter case",
    { profile: 'full', checks: [list.searchByFilename] },
    async () => {
      const docs = await seed();
      for (const term of [token.toUpperCase(), token.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c))]) {
        const { exchange, documents } = await matching(list.searchByFilename, { search: term });
        kit.check(list.searchByFilename, { documents, want: docs, what: `every document named with ${JSON.stringify(term)}` }, exchange);
      }
    },
  );

  kit.scenario(
    'search finds a document by a word that only its PDF text contains, in any letter case',
    { profile: 'full', checks: [list.searchByContent] },
    async (tools) => {
      const docs = await finished();
      const withWord = docs.find((d) => d.filename === `${token}-a.pdf`);
      if (withWord?.status !== 'completed')
        return tools.notExercised(`the PDF with the word ended ${withWord?.status ?? 'missing'} (see lifecycle.completed-has-content)`);
      const { exchange, documents } = await matching(list.searchByContent, { search: word.toUpperCase() });
      kit.check(
        list.searchByContent,
        { documents, want: [withWord], what: `the one PDF whose text has ${JSON.stringify(word)}` },
        exchange,
      );
      // Other runs' documents may hold the short term too: only this run's (named with its token) are judged.
      const short = await matching(list.searchByContent, { search: shortTerm });
      kit.check(
        list.searchByContent,
        {
          documents: short.documents.filter((d) => d.filename.startsWith(token)),
          want: [withWord],
          what: `of this run's documents, the one PDF whose text has ${JSON.stringify(shortTerm)}`,
        },
        short.exchange,
      );
    },
  );

  kit.scenario(
    'search folds case as the contract says: strasse finds STRAẞE, istanbul finds İSTANBUL, οδοσ finds ΟΔΟΣΑ',
    { profile: 'full', checks: [list.searchFoldsCase] },
    async () => {
      const want = (await seed()).filter((d) => d.filename === foldedName);
      for (const term of [`${token}-strasse-istanbul`, `${token.toUpperCase()}-Straße-Istanbul`, `${token}-strasse-istanbul-οδοσ`]) {
        const { exchange, documents } = await matching(list.searchFoldsCase, { search: term });
        kit.check(list.searchFoldsCase, { documents, want, what: `the document named ${JSON.stringify(foldedName)}` }, exchange);
      }
    },
  );

  kit.scenario(
    'search keeps accents: résumé finds the document named with it, resume does not',
    { profile: 'full', checks: [list.searchKeepsAccents] },
    async () => {
      const want = (await seed()).filter((d) => d.filename.startsWith(accentedStem));
      const found = await matching(list.searchKeepsAccents, { search: accentedStem });
      kit.check(
        list.searchKeepsAccents,
        { ...found, want, what: `the document named ${JSON.stringify(`${accentedStem}.pdf`)}` },
        found.exchange,
      );
      const bare = `${token}-resume`;
      const { exchange, documents } = await matching(list.searchKeepsAccents, { search: bare });
      kit.check(
        list.searchKeepsAccents,
        { documents, want: [], what: `no filename contains ${JSON.stringify(bare)} (accents are not ignored)` },
        exchange,
      );
    },
  );

  kit.scenario(
    'search is literal: wildcards match nothing extra, special characters and spaces at either end match themselves',
    { profile: 'full', checks: [list.searchIsLiteral] },
    async () => {
      const docs = await seed();
      const tricky = docs.filter((d) => d.filename.startsWith(literalStem));
      const found = await matching(list.searchIsLiteral, { search: literalStem });
      kit.check(list.searchIsLiteral, { ...found, want: tricky, what: 'the document whose name has these characters' }, found.exchange);
      const at = token.lastIndexOf('-');
      for (const wildcard of ['_', '%', '.', '.*']) {
        const term = `${token.slice(0, at)}${wildcard}${token.slice(at + 1)}`;
        const { exchange, documents } = await matching(list.searchIsLiteral, { search: term });
        kit.check(list.searchIsLiteral, { documents, want: [], what: `no filename contains ${JSON.stringify(term)} literally` }, exchange);
      }
      // Spaces at either end are part of the term: trimmed, these would find `${token}-c.pdf`.
      for (const term of [`${token}-c.pdf `, ` ${token}-c.pdf`]) {
        const { exchange, documents } = await matching(list.searchIsLiteral, { search: term });
        kit.check(
          list.searchIsLiteral,
          { documents, want: [], what: `no filename contains ${JSON.stringify(term)}, spaces included` },
          exchange,
        );
      }
    },
  );
});
