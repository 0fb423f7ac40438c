import { StoreUnavailable } from '@docproc-kit/reference/store/store-unavailable.js';
import { describe, expect, it } from 'vitest';
import { createTenantShare } from './tenant-share.js';

// A work that runs until the test lets it go, recording how many of each tenant run at once.
function harness() {
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const order: string[] = [];
  const gates: Array<() => void> = [];
  const work = (tenant: string, name: string) => async () => {
    running.set(tenant, (running.get(tenant) ?? 0) + 1);
    most.set(tenant, Math.max(most.get(tenant) ?? 0, running.get(tenant)!));
    order.push(name);
    await new Promise<void>((resolve) => gates.push(resolve));
    running.set(tenant, running.get(tenant)! - 1);
    return name;
  };
  const releaseAll = async () => {
    while (gates.length > 0) {
      for (const open of gates.splice(0)) open();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  return { work, most, order, releaseAll, started: () => order.length };
}

describe('a tenant’s share of the pool', () => {
  it('runs at most `share` works of one tenant at once, the rest in order, and never holds up another tenant', async () => {
    const share = createTenantShare(2, 5_000);
    const { work, most, order, releaseAll } = harness();
    const bulk = Array.from({ length: 6 }, (_, i) => share('bulk', work('bulk', `bulk-${i}`)));
    const other = share('other', work('other', 'other-0'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['bulk-0', 'bulk-1', 'other-0']);
    await releaseAll();
    expect(await Promise.all(bulk)).toEqual(['bulk-0', 'bulk-1', 'bulk-2', 'bulk-3', 'bulk-4', 'bulk-5']);
    expect(await other).toBe('other-0');
    expect(order.filter((name) => name.startsWith('bulk'))).toEqual(['bulk-0', 'bulk-1', 'bulk-2', 'bulk-3', 'bulk-4', 'bulk-5']);
    expect(most.get('bulk')).toBe(2);
  });

  it('fails a work that waited past its time as StoreUnavailable (a 503), without running it', async () => {
    const share = createTenantShare(1, 20);
    const { work, releaseAll, started } = harness();
    const first = share('bulk', work('bulk', 'first'));
    await expect(share('bulk', work('bulk', 'late'))).rejects.toBeInstanceOf(StoreUnavailable);
    await releaseAll();
    expect(await first).toBe('first');
    expect(started()).toBe(1);
    await expect(share('bulk', async () => 'after')).resolves.toBe('after');
  });
});
