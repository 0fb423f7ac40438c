import type { Keyring } from '@docproc-kit/reference/api/keys.js';
import { seedFileEntries } from '@docproc-kit/reference/controls/seed-file-entries.js';
import { parseSeeds, type Seed } from '@docproc-kit/reference/controls/seed-request.js';
import { type SeedDeps, seedDocuments } from '@docproc-kit/reference/controls/seeding.js';
import type { FieldError } from '@docproc-kit/reference/http/problem.js';
import type { SeedDocument } from './controls.js';

/** One seed body of a seed file: its documents, and the key of the tenant they are for (default: the first key). */
export interface SeedFileBody {
  api_key?: string;
  documents: SeedDocument[];
}

/** A seed file's contents as a JSON import or `JSON.parse` types them: checked whole when the mock is created. */
export type SeedFileContents =
  | { api_key?: string; documents: readonly unknown[] }
  | ReadonlyArray<{ api_key?: string; documents: readonly unknown[] }>;

/**
 * The documents the mock starts with: what `controls.seed()` takes (an array of documents), or a seed
 * file's contents as `docproc serve --seed-file`, `POST /_mock/seed` and `docproc proxy --record` /
 * `docproc seed from-har` write them (one body, or an array of bodies).
 */
export type DocprocSeed = SeedDocument[] | SeedFileBody | SeedFileBody[] | SeedFileContents;

const isBodies = (seed: unknown[]) =>
  seed.length > 0 && seed.every((entry) => typeof entry === 'object' && entry !== null && 'documents' in entry);

const fieldsOf = (error: unknown) =>
  ((error as { extra?: { errors?: FieldError[] } }).extra?.errors ?? []).map((f) => `${f.name} ${f.message}`).join('; ') || String(error);

/** One tenant's seeds, checked. */
export interface PlannedSeed {
  tenant: string;
  seeds: Seed[];
}

/**
 * Checks a `seed` option whole, at once (a TypeError naming the field otherwise), so creating the mock fails
 * on a seed it cannot apply rather than its first request.
 * @example planSeed([{ status: 'failed', count: 3 }], keyring);
 */
export function planSeed(seed: DocprocSeed, keyring: Pick<Keyring, 'keys' | 'tenantOf'>): PlannedSeed[] {
  // An empty recording (nothing was seen) seeds nothing.
  if (Array.isArray(seed) && seed.length === 0) return [];
  const contents = Array.isArray(seed) && !isBodies(seed) ? { documents: seed } : seed;
  try {
    return seedFileEntries(contents).map((entry, i) => {
      const key = entry.apiKey ?? keyring.keys[0]!;
      const tenant = keyring.tenantOf(key);
      if (!tenant) throw new TypeError(`seed[${i}].api_key is not one of apiKeys`);
      try {
        return { tenant, seeds: parseSeeds({ documents: entry.documents }) };
      } catch (error) {
        throw new TypeError(`${Array.isArray(contents) ? `seed[${i}]: ` : ''}${fieldsOf(error)}`);
      }
    });
  } catch (error) {
    throw error instanceof TypeError
      ? new TypeError(`the docproc mock's seed: ${error.message}`)
      : new TypeError(`the docproc mock's seed: ${fieldsOf(error)}`);
  }
}

/**
 * Creates the planned documents, tenant by tenant, in order (each entry all or nothing, as a seed request).
 * @example await applySeed({ store, processor, clock }, planSeed(options.seed, keyring));
 */
export async function applySeed(deps: SeedDeps, planned: readonly PlannedSeed[]): Promise<void> {
  for (const { tenant, seeds } of planned) await seedDocuments(deps, tenant, seeds);
}
