import { readFile } from 'node:fs/promises';
import { seedFileEntries } from '@docproc-kit/reference/controls/seed-file-entries.js';
import { parseSeeds, type Seed } from '@docproc-kit/reference/controls/seed-request.js';
import { type SeedDeps, seedDocuments } from '@docproc-kit/reference/controls/seeding.js';
import type { FieldError } from '@docproc-kit/reference/http/problem.js';

// Node only (it reads a file): apart from seeding.ts, which the browser-safe core imports.

const fieldsOf = (error: unknown) =>
  ((error as { extra?: { errors?: FieldError[] } }).extra?.errors ?? []).map((f) => `${f.name} ${f.message}`).join('; ') || String(error);

/**
 * Seeds from a `--seed-file` at start-up: a JSON object `{"api_key"?, "documents": [...]}` or an array
 * of them (a recording of more documents than one seed request holds is several entries of one tenant).
 * A tenant that already had documents when the file was opened is left alone, so restarting on the same
 * data dir does not seed twice. Every entry is checked before any is applied; throws (naming the file) on
 * anything it cannot apply.
 * @example await seedFromFile(deps, 'seed.json', (key) => keyring.tenantOf(key), ['docproc-dev-key']);
 */
export async function seedFromFile(
  deps: SeedDeps,
  path: string,
  tenantOf: (key: string) => string | undefined,
  apiKeys: string[],
): Promise<number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new Error(`seed file ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const planned: Array<{ tenant: string; seeds: Seed[] }> = [];
  try {
    for (const [i, entry] of seedFileEntries(parsed).entries()) {
      const key = entry.apiKey ?? apiKeys[0];
      const tenant = key === undefined ? undefined : tenantOf(key);
      if (!tenant) throw new Error(`api_key ${JSON.stringify(key)} is not a key this server accepts`);
      try {
        planned.push({ tenant, seeds: parseSeeds({ documents: entry.documents }) });
      } catch (error) {
        throw new Error(Array.isArray(parsed) ? `[${i}]: ${fieldsOf(error)}` : fieldsOf(error));
      }
    }
  } catch (error) {
    throw new Error(`seed file ${path}: ${error instanceof Error && !('extra' in error) ? error.message : fieldsOf(error)}`);
  }
  const seeded = new Map<string, boolean>();
  for (const { tenant } of planned)
    if (!seeded.has(tenant)) seeded.set(tenant, (await deps.store.list(tenant, { page: 1, limit: 1 })).total > 0);
  let created = 0;
  for (const { tenant, seeds } of planned) if (!seeded.get(tenant)) created += (await seedDocuments(deps, tenant, seeds)).length;
  return created;
}
