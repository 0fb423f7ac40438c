import { randomUUID } from 'node:crypto';
import { changedFaults, type FaultRegistry, type Faults, none } from '@docproc-kit/reference/controls/faults.js';
import type { ProcessingSettings, SettingsRegistry } from '@docproc-kit/reference/processing/settings.js';
import type { Database, Queryable } from './database.js';
import type { Notifications } from './notifications.js';

const CHANNEL = 'docproc_controls';
// How long a change waits to hear its own notification back (by then the other replicas have heard it too).
const ECHO_WAIT_MS = 1_000;

type Kind = 'settings' | 'faults';
/** A change as every replica hears it: the tenant's whole new value (null: reset), so nobody reads it again. */
interface Change {
  kind: Kind;
  tenant: string;
  value: unknown;
  nonce: string;
}

/** The mock controls' per-tenant state shared by the replicas of one database. */
export interface SharedControls {
  settings: SettingsRegistry;
  faults: FaultRegistry;
  /**
   * Resets a tenant whole, in one transaction: its documents (`removeDocuments`, in the same transaction),
   * settings and faults; resolves to how many documents. A reset that fails changed nothing.
   */
  resetTenant(tenant: string, removeDocuments: (tx: Queryable) => Promise<number>): Promise<number>;
}

/**
 * Settings and faults kept in the database (docproc.tenant_controls) and cached in each replica, so reads
 * stay synchronous on the hot path. A change is written, then sent to every replica with NOTIFY carrying
 * the new value; the change resolves once its own notification came back, so by the time the caller hears
 * "done", the other replicas (listening on the same server) have been told too. The cache is loaded at
 * start and again whenever the listening connection was lost (notifications may have been missed).
 * Settings are stored as the tenant's overrides, so each replica applies them over its own defaults.
 * @example const { settings, faults } = await createSharedControls(db, notifications, { processing_delay_ms: 1500, failure_rate: 0 });
 */
export async function createSharedControls(
  db: Database,
  notifications: Notifications,
  defaults: ProcessingSettings,
): Promise<SharedControls> {
  const cache: Record<Kind, Map<string, unknown>> = { settings: new Map(), faults: new Map() };
  const echoes = new Map<string, () => void>();

  const apply = (kind: Kind, tenant: string, value: unknown) => {
    if (value === null) cache[kind].delete(tenant);
    else cache[kind].set(tenant, Object.freeze(value));
  };
  const reload = async () => {
    const { rows } = await db.query<{ kind: Kind; tenant: string; value: unknown }>(
      'SELECT kind, tenant, value FROM docproc.tenant_controls',
    );
    cache.settings.clear();
    cache.faults.clear();
    for (const row of rows) apply(row.kind, row.tenant, row.value);
  };
  await notifications.listen(CHANNEL, (payload) => {
    if (payload === undefined) {
      void reload().catch(() => {
        // The connection went again; its reconnect reloads.
      });
      return;
    }
    const change = JSON.parse(payload) as Change;
    apply(change.kind, change.tenant, change.value);
    echoes.get(change.nonce)?.();
  });
  await reload();

  // Writes the tenant's new value (or deletes it), tells every replica, and waits to hear it back.
  const publish = async (kind: Kind, tenant: string, write: (nonce: string) => Promise<unknown>): Promise<void> => {
    const nonce = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    let echoed = false;
    const heard = new Promise<void>((resolve) => {
      echoes.set(nonce, () => {
        echoed = true;
        resolve();
      });
      timer = setTimeout(resolve, ECHO_WAIT_MS);
    });
    try {
      const value = await write(nonce);
      // Notifications arrive in commit order: once this change's own came back, the cache may already
      // hold a later one from another replica, which this value must not overwrite.
      if (!echoed) apply(kind, tenant, value);
      await heard;
    } finally {
      clearTimeout(timer);
      echoes.delete(nonce);
    }
  };
  const notify = (kind: Kind, tenant: string, value: string, nonce: string) =>
    `pg_notify('${CHANNEL}', json_build_object('kind', '${kind}', 'tenant', ${tenant}, 'value', ${value}, 'nonce', ${nonce})::text)`;

  const settings: SettingsRegistry = {
    defaults: Object.freeze({ ...defaults }),
    get: (tenant) => ({ ...defaults, ...(cache.settings.get(tenant) as Partial<ProcessingSettings> | undefined) }),
    async update(tenant, change) {
      await publish('settings', tenant, async (nonce) => {
        const { rows } = await db.query<{ value: unknown }>(
          `WITH written AS (
             INSERT INTO docproc.tenant_controls AS c (kind, tenant, value) VALUES ('settings', $1, $2)
             ON CONFLICT (kind, tenant) DO UPDATE SET value = c.value || EXCLUDED.value
             RETURNING value)
           SELECT value, ${notify('settings', '$1::text', 'value', '$3::text')} FROM written`,
          [tenant, JSON.stringify(change), nonce],
        );
        return rows[0]!.value;
      });
      return settings.get(tenant);
    },
    async reset(tenant) {
      await publish('settings', tenant, async (nonce) => {
        await db.query(
          `WITH gone AS (DELETE FROM docproc.tenant_controls WHERE kind = 'settings' AND tenant = $1)
           SELECT ${notify('settings', '$1::text', 'null', '$2::text')}`,
          [tenant, nonce],
        );
        return null;
      });
    },
  };

  const current = (tenant: string) => (cache.faults.get(tenant) as Faults | undefined) ?? none();
  const faults: FaultRegistry = {
    get: (tenant) => changedFaults(current(tenant), {}),
    peek: (tenant) => cache.faults.get(tenant) as Faults | undefined,
    async update(tenant, change) {
      let next: Faults = none();
      await publish('faults', tenant, (nonce) =>
        db.transaction(async (tx) => {
          // The row is locked, so concurrent changes through different replicas merge, not overwrite.
          await tx.query("INSERT INTO docproc.tenant_controls (kind, tenant, value) VALUES ('faults', $1, $2) ON CONFLICT DO NOTHING", [
            tenant,
            JSON.stringify(none()),
          ]);
          const { rows } = await tx.query<{ value: Faults }>(
            "SELECT value FROM docproc.tenant_controls WHERE kind = 'faults' AND tenant = $1 FOR UPDATE",
            [tenant],
          );
          next = changedFaults(rows[0]!.value, change);
          await tx.query(
            `UPDATE docproc.tenant_controls SET value = $2 WHERE kind = 'faults' AND tenant = $1
             RETURNING ${notify('faults', '$1::text', 'value', '$3::text')}`,
            [tenant, JSON.stringify(next), nonce],
          );
          return next;
        }),
      );
      return changedFaults(next, {});
    },
    async reset(tenant) {
      await publish('faults', tenant, async (nonce) => {
        await db.query(
          `WITH gone AS (DELETE FROM docproc.tenant_controls WHERE kind = 'faults' AND tenant = $1)
           SELECT ${notify('faults', '$1::text', 'null', '$2::text')}`,
          [tenant, nonce],
        );
        return null;
      });
    },
  };
  const resetTenant = async (tenant: string, removeDocuments: (tx: Queryable) => Promise<number>): Promise<number> => {
    const kinds = ['settings', 'faults'] as const;
    const nonces = kinds.map(() => randomUUID());
    const echoed = new Set<Kind>();
    let timer: NodeJS.Timeout | undefined;
    const bothEchoed = kinds.map(
      (kind, i) =>
        new Promise<void>((resolve) =>
          echoes.set(nonces[i]!, () => {
            echoed.add(kind);
            resolve();
          }),
        ),
    );
    const heard = Promise.race([
      Promise.all(bothEchoed),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ECHO_WAIT_MS);
      }),
    ]);
    try {
      // Notifications are sent at commit, and only if it commits.
      const removed = await db.transaction(async (tx) => {
        const count = await removeDocuments(tx);
        await tx.query(
          `WITH gone AS (DELETE FROM docproc.tenant_controls WHERE tenant = $1)
           SELECT ${notify('settings', '$1::text', 'null', '$2::text')}, ${notify('faults', '$1::text', 'null', '$3::text')}`,
          [tenant, nonces[0], nonces[1]],
        );
        return count;
      });
      for (const kind of kinds) if (!echoed.has(kind)) apply(kind, tenant, null);
      await heard;
      return removed;
    } finally {
      clearTimeout(timer);
      for (const nonce of nonces) echoes.delete(nonce);
    }
  };
  return { settings, faults, resetTenant };
}
