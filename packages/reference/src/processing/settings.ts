/** The run-time knobs of processing, changeable through the mock controls. */
export interface ProcessingSettings {
  /** Minimum time a run stays `processing`, in ms. */
  processing_delay_ms: number;
  /** Share (0..1) of otherwise good runs that fail with `processing_error`. */
  failure_rate: number;
}

/**
 * Settings per tenant, so one team's experiments do not slow down another's. Reads are synchronous (every
 * run and request reads them); changes are asynchronous, so a registry shared by replicas can store them.
 */
export interface SettingsRegistry {
  readonly defaults: Readonly<ProcessingSettings>;
  get(tenant: string): ProcessingSettings;
  update(tenant: string, change: Partial<ProcessingSettings>): Promise<ProcessingSettings>;
  reset(tenant: string): Promise<void>;
}

/** Default minimum processing time, long enough for a UI to show its "processing" state. */
export const DEFAULT_PROCESSING_DELAY_MS = 1500;

/** Extractions running at once unless configured: one per core of a small machine. */
export const DEFAULT_CONCURRENCY = 2;

/** The longest processing delay the settings accept (10 minutes). */
export const MAX_PROCESSING_DELAY_MS = 600_000;

/**
 * Holds each tenant's settings in memory, starting from the server's options (a restart goes back
 * to those).
 * @example const settings = createSettings({ processing_delay_ms: 1500, failure_rate: 0 });
 */
export function createSettings(defaults: ProcessingSettings): SettingsRegistry {
  const byTenant = new Map<string, ProcessingSettings>();
  const frozen = Object.freeze({ ...defaults });
  return {
    defaults: frozen,
    get: (tenant) => ({ ...(byTenant.get(tenant) ?? frozen) }),
    async update(tenant, change) {
      const next = { ...(byTenant.get(tenant) ?? frozen), ...change };
      byTenant.set(tenant, next);
      return { ...next };
    },
    reset: async (tenant) => void byTenant.delete(tenant),
  };
}

/**
 * A seeded uniform random source in [0, 1) (mulberry32), so `--seed` replays the same failures;
 * without a seed, Math.random.
 * @example const random = createRandom(42); random(); // always the same first draw
 */
export function createRandom(seed?: number): () => number {
  if (seed === undefined) return Math.random;
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
