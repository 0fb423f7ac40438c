import { foldForSearch } from '@docproc-kit/contract/search-folding.js';

// (list view × change): a view of a tenant's list read again after a kind of change since its last read.
// A view is one request's query, named by what it asks (no filter or each status, a search by filename or by
// content, the last page, a page past the last); each kind of change is one a client can cause. A target
// that answers a view from before the change, or files a changed document under its old status, shows only
// in such a pair: the report counts each one the run reached.

/** The kinds of change a client can cause, as the report names them (a run ending: `ending(status)`). */
export const CHANGES = {
  upload: 'an upload',
  retry: 'a retry',
  replay: 'a replayed upload (no change)',
  refused: 'a refused upload (no change)',
  ending: (status: string) => `a run ending ${status}`,
} as const;

/** Every kind of change, for a contract whose runs end in `endings`. */
export function changeNames(endings: readonly string[]): string[] {
  return [CHANGES.upload, ...endings.map(CHANGES.ending), CHANGES.retry, CHANGES.replay, CHANGES.refused];
}

/** The query parameter names a list view is told by (the contract's, found by the caller). */
export interface ViewParameters {
  filter?: string;
  search?: string;
  page?: string;
}

/** The views of a list whose status filter takes `statuses`. */
export function listViews(statuses: readonly string[], parameters: ViewParameters): string[] {
  return [
    ...(parameters.filter ? [`no ${parameters.filter}`, ...statuses.map((s) => `${parameters.filter} ${s}`)] : []),
    ...(parameters.search ? [`a ${parameters.search} by filename`, `a ${parameters.search} by content`] : []),
    ...(parameters.page ? ['the last page', 'a page past the last'] : []),
  ];
}

/** The (view × change) state names of a list: each view read again after each kind of change (`endings`: the statuses a run ends in). */
export function listViewStates(statuses: readonly string[], endings: readonly string[], parameters: ViewParameters): string[] {
  return listViews(statuses, parameters).flatMap((view) => changeNames(endings).map((change) => viewState(view, change)));
}

const viewState = (view: string, change: string) => `${view}, read again after ${change}`;

/** What one list answer said of its page (`pagination` as the contract's list body gives it). */
export interface ListAnswer {
  page?: number;
  totalPages?: number;
}

/** The views one list request is: by its filter, its search (`filenames`: the tenant's known names), its page. */
export function viewsOf(url: URL, parameters: ViewParameters, filenames: readonly string[], answer: ListAnswer): string[] {
  const views: string[] = [];
  if (parameters.filter) {
    const status = url.searchParams.get(parameters.filter);
    views.push(status === null ? `no ${parameters.filter}` : `${parameters.filter} ${status}`);
  }
  const term = parameters.search ? url.searchParams.get(parameters.search) : null;
  if (parameters.search && term !== null && term !== '') {
    const folded = foldForSearch(term);
    views.push(`a ${parameters.search} by ${filenames.some((f) => foldForSearch(f).includes(folded)) ? 'filename' : 'content'}`);
  }
  const { page, totalPages } = answer;
  if (parameters.page && typeof page === 'number' && typeof totalPages === 'number') {
    if (page > totalPages) views.push('a page past the last');
    else if (page === totalPages) views.push('the last page');
  }
  return views;
}

/** Remembers each tenant's changes and each view's last read, and names the (view × change) pairs a read reaches. */
export interface ViewMemory {
  /** Notes a change (one of {@link changeNames}) of the tenant's documents. */
  changed(tenant: string, change: string): void;
  /** The states a read of `query` (its views `views`) reaches; then remembers it as read now. */
  read(tenant: string, query: string, views: readonly string[]): string[];
}

/** An empty memory. */
export function createViewMemory(): ViewMemory {
  const changes = new Map<string, string[]>();
  const lastRead = new Map<string, number>();
  return {
    changed(tenant, change) {
      const log = changes.get(tenant) ?? [];
      log.push(change);
      changes.set(tenant, log);
    },
    read(tenant, query, views) {
      const log = changes.get(tenant) ?? [];
      const at = `${tenant}\n${query}`;
      const since = lastRead.get(at);
      lastRead.set(at, log.length);
      if (since === undefined) return [];
      const happened = new Set(log.slice(since));
      return views.flatMap((view) => [...happened].map((change) => viewState(view, change)));
    },
  };
}
