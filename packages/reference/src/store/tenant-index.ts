import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import type { DocumentRecord, DocumentStatus, ListQuery } from '../model.js';

/** Orders records oldest first: `created_at`, then id (the list shows the reverse). */
export const olderFirst = (a: DocumentRecord, b: DocumentRecord): number =>
  a.created_at === b.created_at ? a.id - b.id : a.created_at < b.created_at ? -1 : 1;

/**
 * One tenant's documents kept in list order with a count per status, so a page of an unfiltered or
 * status-filtered list costs what the page costs, not what the whole list costs. New documents are
 * almost always the newest, so keeping the order is an append.
 */
export interface TenantIndex {
  add(record: DocumentRecord): void;
  /** Drops a record (an upload whose write failed). */
  remove(record: DocumentRecord): void;
  /** Files `after` in place of `before` (the same id, in a new state). */
  update(before: DocumentRecord, after: DocumentRecord): void;
  /** How many documents, in one status or in all. */
  count(status?: DocumentStatus): number;
  /** The records, newest first, that pass `keep`, from the `skip`-th match on, at most `take`; and how many pass in all. */
  page(
    keep: ((record: DocumentRecord) => boolean) | undefined,
    skip: number,
    take: number,
    countAll: boolean,
  ): { records: DocumentRecord[]; matched: number };
}

/** Creates an empty {@link TenantIndex}. */
export function createTenantIndex(): TenantIndex {
  const records: DocumentRecord[] = [];
  const counts: Record<DocumentStatus, number> = { processing: 0, completed: 0, failed: 0 };

  const positionOf = (record: DocumentRecord) => {
    let lo = 0;
    let hi = records.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (olderFirst(records[mid]!, record) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const insert = (record: DocumentRecord) => {
    const last = records.at(-1);
    if (!last || olderFirst(last, record) < 0) records.push(record);
    else records.splice(positionOf(record), 0, record);
  };

  return {
    add(record) {
      insert(record);
      counts[record.status]++;
    },
    remove(record) {
      const at = records.findIndex((r) => r.id === record.id);
      if (at < 0) return;
      records.splice(at, 1);
      counts[record.status]--;
    },
    update(before, after) {
      counts[before.status]--;
      counts[after.status]++;
      if (before.created_at !== after.created_at) {
        const at = records.findIndex((r) => r.id === before.id);
        if (at >= 0) records.splice(at, 1);
        insert(after);
        return;
      }
      // Same place in the order: swap the new record in (records are replaced, not changed).
      let at = positionOf(before);
      if (records[at]?.id !== before.id) at = records.findIndex((r) => r.id === before.id);
      if (at >= 0) records[at] = after;
    },
    count(status) {
      return status ? counts[status] : records.length;
    },
    page(keep, skip, take, countAll) {
      const out: DocumentRecord[] = [];
      let matched = 0;
      for (let i = records.length - 1; i >= 0; i--) {
        const record = records[i]!;
        if (keep && !keep(record)) continue;
        if (matched >= skip && out.length < take) out.push(record);
        matched++;
        // Without a total to compute, nothing past the page matters.
        if (!countAll && out.length === take) break;
      }
      return { records: out, matched };
    },
  };
}

/** A document's filename and extracted text as a search compares them (folded, see search-folding.ts). */
export interface Searchable {
  name(record: DocumentRecord): string;
  /** Undefined when the document has no text to search (not completed). */
  text(record: DocumentRecord): string | undefined;
}

/**
 * A page of a tenant's list: the status filter uses the counts, only a search has to look at every
 * record (a literal substring of the folded filename or extracted text).
 * @example listPage(index, { page: 1, limit: 20, search: 'pelican' }, searchable)
 */
export function listPage(
  index: TenantIndex | undefined,
  query: ListQuery,
  searchable: Searchable,
): { documents: DocumentRecord[]; total: number } {
  if (!index) return { documents: [], total: 0 };
  const skip = (query.page - 1) * query.limit;
  const { status } = query;
  if (query.search === undefined) {
    const keep = status ? (r: DocumentRecord) => r.status === status : undefined;
    const total = index.count(status);
    return { documents: skip >= total ? [] : index.page(keep, skip, query.limit, false).records, total };
  }
  const term = foldForSearch(query.search);
  const keep = (r: DocumentRecord) =>
    (!status || r.status === status) && (searchable.name(r).includes(term) || (searchable.text(r)?.includes(term) ?? false));
  const { records, matched } = index.page(keep, skip, query.limit, true);
  return { documents: records, total: matched };
}
