import type { DocumentStore } from '@docproc-kit/reference/store/document-store.js';
import { StoreUnavailable } from '@docproc-kit/reference/store/store-unavailable.js';

/** Runs a tenant's database work within its share of the pool's connections. */
export type TenantShare = <T>(tenant: string, work: () => Promise<T>) => Promise<T>;

/**
 * Caps how much of a process's pool one tenant holds at once: at most `share` of its works run at a time
 * (each holds at most one connection), the rest wait their turn in order, so one tenant's bulk work (seeds,
 * bursts of lists) always leaves the rest of the pool to the others. A work that waits longer than `waitMs`
 * for its turn fails as {@link StoreUnavailable} (a 503, nothing changed), as one waiting for the pool does.
 * @example const share = createTenantShare(5, 5_000); await share(tenant, () => db.query('SELECT 1'));
 */
export function createTenantShare(share: number, waitMs: number): TenantShare {
  const tenants = new Map<string, { running: number; waiting: Array<() => void> }>();
  const release = (tenant: string) => {
    const state = tenants.get(tenant)!;
    const next = state.waiting.shift();
    if (next) return next();
    state.running--;
    if (state.running === 0) tenants.delete(tenant);
  };
  const turn = async (tenant: string): Promise<void> => {
    let state = tenants.get(tenant);
    if (!state) {
      state = { running: 0, waiting: [] };
      tenants.set(tenant, state);
    }
    if (state.running < share) {
      state.running++;
      return;
    }
    const waiting = state.waiting;
    // Handed over by release: `running` stays, the turn passes from one work to the next.
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new StoreUnavailable(`This API key has ${share} database requests in progress already; the others waited ${waitMs} ms.`));
      }, waitMs);
      waiting.push(go);
    });
  };
  return async (tenant, work) => {
    await turn(tenant);
    try {
      return await work();
    } finally {
      release(tenant);
    }
  };
}

/**
 * The store with every operation of one tenant's requests (claims, inserts, reads, lists, resets) run
 * within that tenant's share; those of processing (by id) are bounded by the processor's concurrency.
 * @example const fair = withTenantShares(store, createTenantShare(5, 5_000));
 */
export function withTenantShares(store: DocumentStore, share: TenantShare): DocumentStore {
  return {
    ...store,
    claimKey: (tenant, key, now) => share(tenant, () => store.claimKey(tenant, key, now)),
    insert: (files, now, remember) => share(files[0]!.tenant, () => store.insert(files, now, remember)),
    get: (tenant, id) => share(tenant, () => store.get(tenant, id)),
    list: (tenant, query) => share(tenant, () => store.list(tenant, query)),
    content: (record) => share(record.tenant, () => store.content(record)),
    removeTenant: (tenant) => share(tenant, () => store.removeTenant(tenant)),
  };
}
