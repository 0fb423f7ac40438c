import { type Check, checks } from '../checks/index.js';
import { describeResponse } from '../definitions/describe.js';
import type { Exchange } from '../definitions/exchange.js';
import { describe, once, openSuite } from '../harness/suite.js';
import { fixture, part, textPdf } from '../inputs/sample-files.js';
import type { WireDocument } from '../transport/api.js';
import { listed, uploaded, type WireFullDocument, type WireList } from '../transport/api.js';

const kit = await openSuite('list');
const { expectStatus, expectNamesParameter } = kit;
const { list, upload } = checks;
const { defaultLimit, maxLimit, maxSearchLength, statuses } = kit.facts;
const seedToken = kit.token('seed');
const plainPdf = textPdf(['docproc conformance', 'list check']);

/** Five documents in three uploads, so that creation times differ and paging by 2 ends on a short page. */
const seed = once(async () => {
  const requests = [
    [part(`${seedToken}-a.pdf`, plainPdf), part(`${seedToken}-b.pdf`, plainPdf)],
    [part(`${seedToken}-c.pdf`, plainPdf), part(`${seedToken}-d.png`, fixture('truncated.png'), 'image/png')],
    [part(`${seedToken}-e.pdf`, plainPdf)],
  ];
  const docs: WireFullDocument[] = [];
  for (const parts of requests) {
    for (const exchange of await kit.uploadInBatches(parts)) {
      expectStatus(upload.accepted, exchange, 202, 'valid files');
      docs.push(...uploaded(exchange));
    }
  }
  return docs;
});

/** One list page; a non-200 fails `check`, the property the scenario was about to judge (a 200 is no pass of it). */
async function page(
  check: Check,
  query: Record<string, string | number>,
): Promise<{ exchange: Exchange; documents: WireDocument[]; pagination: WireList['pagination'] }> {
  const exchange = await kit.api.list(query);
  kit.require(check, exchange.status === 200, () => ({
    received: describeResponse(exchange),
    expected: '200 (a valid list request)',
    exchange,
  }));
  return { exchange, ...listed(exchange) };
}

describe('listDocuments pages', () => {
  kit.scenario(
    'without parameters it is page 1 with the documented default limit',
    { profile: 'contract', checks: [list.defaults] },
    async () => {
      const { exchange, documents, pagination } = await page(list.defaults, {});
      kit.check(list.defaults, { pagination, count: documents.length, defaultLimit }, exchange);
    },
  );

  kit.scenario(
    'with more documents than the default limit, it returns exactly that many',
    { profile: 'full', checks: [list.defaultLimitApplied] },
    async () => {
      const { pagination } = await page(list.defaultLimitApplied, {});
      // Top up (never more than needed) so that the default limit, not the data, decides the page size.
      for (let n = defaultLimit + 1 - pagination.total, i = 0; n > 0; n -= Math.min(10, kit.limits.maxFiles), i++) {
        const parts = Array.from({ length: Math.min(n, 10, kit.limits.maxFiles) }, (_, j) =>
          part(`${kit.token('filler')}-${i}-${j}.pdf`, plainPdf),
        );
        expectStatus(upload.accepted, await kit.api.upload(parts), 202, 'valid files');
      }
      const again = await page(list.defaultLimitApplied, {});
      kit.check(list.defaultLimitApplied, { pagination: again.pagination, count: again.documents.length, defaultLimit }, again.exchange);
    },
  );

  kit.scenario('limit caps the page and is echoed in pagination', { profile: 'full', checks: [list.limitRespected] }, async () => {
    const created = (await seed()).length;
    for (const limit of [2, maxLimit]) {
      const { exchange, documents, pagination } = await page(list.limitRespected, { search: seedToken, limit });
      kit.check(list.limitRespected, { limit, created, pagination, count: documents.length }, exchange);
    }
  });

  kit.scenario(
    'walking every page with limit 2 agrees with total, newest first',
    { profile: 'full', checks: [list.pagesAgreeWithTotal, list.newestFirst] },
    async () => {
      await seed();
      const first = await page(list.pagesAgreeWithTotal, { search: seedToken, limit: 2 });
      const seen: WireDocument[] = [...first.documents];
      let last = first.exchange;
      for (let p = 2; p <= Math.min(first.pagination.total_pages, 50); p++) {
        const next = await page(list.pagesAgreeWithTotal, { search: seedToken, limit: 2, page: p });
        last = next.exchange;
        kit.check(list.pagesAgreeWithTotal, { kind: 'page', asked: p, pagination: next.pagination, total: first.pagination.total }, last);
        seen.push(...next.documents);
      }
      kit.check(list.pagesAgreeWithTotal, { kind: 'walk', first: first.pagination, seen }, last);
      kit.check(list.newestFirst, { documents: seen }, last);
    },
  );

  kit.scenario('a page past the end is empty, with the true totals', { profile: 'full', checks: [list.pagePastEnd] }, async () => {
    await seed();
    const { pagination } = await page(list.pagePastEnd, { search: seedToken, limit: 2 });
    const past = await page(list.pagePastEnd, { search: seedToken, limit: 2, page: pagination.total_pages + 1 });
    kit.check(list.pagePastEnd, { last: pagination, past: past.pagination, count: past.documents.length }, past.exchange);
  });
});

describe('listDocuments validates its parameters', () => {
  const long = 'x'.repeat(maxSearchLength + 1);
  const cases: Array<{ label: string; rawQuery: string; name: string; profile: 'contract' | 'full' }> = [
    { label: 'page=abc', rawQuery: 'page=abc', name: 'page', profile: 'contract' },
    { label: 'page=0', rawQuery: 'page=0', name: 'page', profile: 'contract' },
    { label: 'page=-1', rawQuery: 'page=-1', name: 'page', profile: 'contract' },
    { label: 'page=1.5', rawQuery: 'page=1.5', name: 'page', profile: 'contract' },
    { label: 'page=2^53', rawQuery: 'page=9007199254740992', name: 'page', profile: 'contract' },
    { label: 'page repeated', rawQuery: 'page=1&page=2', name: 'page', profile: 'contract' },
    // "repeated", whatever the values: a stack that keeps the last (or the first) value reads these as one.
    { label: 'page=1 sent twice', rawQuery: 'page=1&page=1', name: 'page', profile: 'full' },
    { label: 'limit=5 sent twice', rawQuery: 'limit=5&limit=5', name: 'limit', profile: 'full' },
    {
      label: `status_filter=${statuses[0]} sent twice`,
      rawQuery: `status_filter=${statuses[0]}&status_filter=${statuses[0]}`,
      name: 'status_filter',
      profile: 'full',
    },
    { label: 'search sent twice', rawQuery: 'search=a&search=a', name: 'search', profile: 'full' },
    { label: 'page empty', rawQuery: 'page=', name: 'page', profile: 'full' },
    { label: 'limit=0', rawQuery: 'limit=0', name: 'limit', profile: 'contract' },
    { label: `limit=${maxLimit + 1} (not clamped)`, rawQuery: `limit=${maxLimit + 1}`, name: 'limit', profile: 'contract' },
    { label: 'limit=ten', rawQuery: 'limit=ten', name: 'limit', profile: 'contract' },
    { label: 'limit empty', rawQuery: 'limit=', name: 'limit', profile: 'full' },
    { label: 'status_filter=archived', rawQuery: 'status_filter=archived', name: 'status_filter', profile: 'contract' },
    {
      label: `status_filter=${statuses[0]!.toUpperCase()} (values are case-sensitive)`,
      rawQuery: `status_filter=${statuses[0]!.toUpperCase()}`,
      name: 'status_filter',
      profile: 'contract',
    },
    { label: 'status_filter empty', rawQuery: 'status_filter=', name: 'status_filter', profile: 'full' },
    { label: `search of ${maxSearchLength + 1} characters`, rawQuery: `search=${long}`, name: 'search', profile: 'contract' },
    { label: 'search empty', rawQuery: 'search=', name: 'search', profile: 'full' },
  ];
  for (const c of cases) {
    kit.scenario(`${c.label} is a 400`, { profile: c.profile, checks: [list.rejectsInvalidParams] }, async () => {
      const exchange = await kit.api.list(undefined, { rawQuery: c.rawQuery });
      expectStatus(list.rejectsInvalidParams, exchange, 400, `${c.name} is invalid`);
      if (kit.profile === 'full') expectNamesParameter(exchange, { in: 'query', name: c.name });
    });
  }

  kit.scenario('an unknown parameter is ignored', { profile: 'contract', checks: [list.unknownParamsIgnored] }, async () => {
    expectStatus(list.unknownParamsIgnored, await kit.api.list({ cachebuster: Date.now() }), 200, 'unknown parameters are ignored');
  });
});
