import { describe } from 'vitest';
import { type Check, checks } from '../checks/index.js';
import type { WireDocument } from '../kit/api.js';
import { idsOf, listed, uploaded, type WireFullDocument, type WireList } from '../kit/api.js';
import { describeResponse, show } from '../kit/describe.js';
import type { Exchange } from '../kit/exchange.js';
import { fixture, part, textPdf } from '../kit/files.js';
import { once, openSuite } from '../kit/suite.js';

const kit = await openSuite('list');
const { verify, expectStatus, expectNamesParameter } = kit;
const { list, upload } = checks;
const { defaultLimit, maxLimit, maxSearchLength, statuses } = kit.facts;
const seedToken = kit.token('seed');
const plainPdf = await textPdf(['docproc conformance', 'list check']);

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
      verify(list.defaults, pagination.page === 1 && pagination.limit === defaultLimit && documents.length <= defaultLimit, () => ({
        received: `page ${pagination.page}, limit ${pagination.limit}, ${documents.length} documents`,
        expected: `page 1, limit ${defaultLimit}, at most ${defaultLimit} documents`,
        exchange,
      }));
    },
  );

  kit.scenario(
    'with more documents than the default limit, it returns exactly that many',
    { profile: 'full', checks: [list.defaultLimitApplied] },
    async () => {
      let { pagination } = await page(list.defaultLimitApplied, {});
      // Top up (never more than needed) so that the default limit, not the data, decides the page size.
      for (let n = defaultLimit + 1 - pagination.total, i = 0; n > 0; n -= Math.min(10, kit.limits.maxFiles), i++) {
        const parts = Array.from({ length: Math.min(n, 10, kit.limits.maxFiles) }, (_, j) =>
          part(`${kit.token('filler')}-${i}-${j}.pdf`, plainPdf),
        );
        expectStatus(upload.accepted, await kit.api.upload(parts), 202, 'valid files');
      }
      const again = await page(list.defaultLimitApplied, {});
      ({ pagination } = again);
      verify(list.defaultLimitApplied, again.documents.length === defaultLimit && pagination.limit === defaultLimit, () => ({
        received: `${again.documents.length} documents, pagination.limit ${pagination.limit} (total ${pagination.total})`,
        expected: `${defaultLimit} documents and pagination.limit ${defaultLimit}`,
        exchange: again.exchange,
      }));
    },
  );

  kit.scenario('limit caps the page and is echoed in pagination', { profile: 'full', checks: [list.limitRespected] }, async () => {
    // Judged against how many documents the run itself created, never against the server's own total.
    const created = (await seed()).length;
    for (const limit of [2, maxLimit]) {
      const { exchange, documents, pagination } = await page(list.limitRespected, { search: seedToken, limit });
      const want = Math.min(limit, created);
      verify(list.limitRespected, documents.length === want && pagination.limit === limit, () => ({
        received: `${documents.length} documents, pagination.limit ${pagination.limit}`,
        expected: `${want} documents (limit ${limit}; the run created ${created} that match), pagination.limit ${limit}`,
        exchange,
      }));
    }
  });

  kit.scenario(
    'walking every page with limit 2 agrees with total, newest first',
    { profile: 'full', checks: [list.pagesAgreeWithTotal, list.newestFirst] },
    async () => {
      await seed();
      const first = await page(list.pagesAgreeWithTotal, { search: seedToken, limit: 2 });
      const { total, total_pages: totalPages, limit } = first.pagination;
      const seen: WireDocument[] = [...first.documents];
      let last = first.exchange;
      for (let p = 2; p <= Math.min(totalPages, 50); p++) {
        const next = await page(list.pagesAgreeWithTotal, { search: seedToken, limit: 2, page: p });
        last = next.exchange;
        verify(list.pagesAgreeWithTotal, next.pagination.page === p && next.pagination.total === total, () => ({
          received: `page ${next.pagination.page}, total ${next.pagination.total}`,
          expected: `page ${p}, total ${total} (as on page 1)`,
          exchange: next.exchange,
        }));
        seen.push(...next.documents);
      }
      const ids = idsOf(seen);
      const unique = new Set(ids).size === ids.length;
      verify(
        list.pagesAgreeWithTotal,
        unique && ids.length === total && totalPages === Math.ceil(total / limit) && first.pagination.page === 1,
        () => ({
          received: `${ids.length} documents over ${totalPages} pages${unique ? '' : ' with duplicates'}: ${show(ids)}; total ${total}, total_pages ${totalPages}`,
          expected: `${total} distinct documents over ceil(${total}/${limit}) = ${Math.ceil(total / limit)} pages`,
          exchange: last,
        }),
      );
      const outOfOrder = seen.findIndex((d, i) => i > 0 && !newerFirst(seen[i - 1]!, d));
      verify(list.newestFirst, outOfOrder === -1, () => ({
        received: `${show(seen.map((d) => [d.document_id, d.created_at]))} (position ${outOfOrder} is out of order)`,
        expected: 'created_at descending, then document_id descending',
        exchange: last,
      }));
    },
  );

  kit.scenario('a page past the end is empty, with the true totals', { profile: 'full', checks: [list.pagePastEnd] }, async () => {
    await seed();
    const { pagination } = await page(list.pagePastEnd, { search: seedToken, limit: 2 });
    const past = await page(list.pagePastEnd, { search: seedToken, limit: 2, page: pagination.total_pages + 1 });
    const p = past.pagination;
    verify(
      list.pagePastEnd,
      past.documents.length === 0 &&
        p.total === pagination.total &&
        p.total_pages === pagination.total_pages &&
        p.page === pagination.total_pages + 1,
      () => ({
        received: `${past.documents.length} documents, ${show(p)}`,
        expected: `no documents, ${show({ ...pagination, page: pagination.total_pages + 1 })}`,
        exchange: past.exchange,
      }),
    );
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

function newerFirst(a: WireDocument, b: WireDocument): boolean {
  const [ta, tb] = [Date.parse(a.created_at), Date.parse(b.created_at)];
  return ta > tb || (ta === tb && a.document_id > b.document_id);
}
