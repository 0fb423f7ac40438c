import type { DocumentRecord, ListQuery } from '../model.js';
import { listJson } from '../serialize.js';

/** The bytes of a list page, made from the page's records and total. */
export type PageBody = (tenant: string, query: ListQuery, records: readonly DocumentRecord[], total: number) => Uint8Array<ArrayBuffer>;

interface Page {
  records: readonly DocumentRecord[];
  total: number;
  body: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();

/**
 * The last pages answered, by tenant and query, as bytes ready to send. Records are frozen and
 * replaced on every change, so a page made of the same record objects with the same total is the
 * same page: a list that polling clients repeat costs twenty comparisons instead of a join, a
 * copy and an encoding of a few kilobytes. A store whose records are not frozen is never cached.
 * At most `size` pages are kept (the oldest goes first), whatever the queries.
 * @example const pageBody = createPageCache(); const body = pageBody(tenant, query, documents, total);
 */
export function createPageCache(size = 128): PageBody {
  const pages = new Map<string, Page>();
  return (tenant, query, records, total) => {
    const key = `${tenant}\n${query.page}\n${query.limit}\n${query.status ?? ''}\n${query.search ?? ''}`;
    const cached = pages.get(key);
    if (cached && cached.total === total && sameRecords(cached.records, records)) return cached.body;
    const body = encoder.encode(listJson(records, { page: query.page, limit: query.limit, total }));
    if (records.every((record) => Object.isFrozen(record))) {
      if (!cached && pages.size >= size) pages.delete(pages.keys().next().value!);
      pages.set(key, { records: [...records], total, body });
    }
    return body;
  };
}

function sameRecords(a: readonly DocumentRecord[], b: readonly DocumentRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
