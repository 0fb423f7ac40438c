import { readFile } from 'node:fs/promises';
import { parseSeeds, type Seed } from '@docproc-kit/reference/controls/seed-request.js';
import { type SeedDeps, seedDocuments } from '@docproc-kit/reference/controls/seeding.js';
import type { FieldError } from '@docproc-kit/reference/http/problem.js';

// Node only (it reads a file): apart from seeding.ts, which the browser-safe core imports.

/** One tenant's part of a seed file: the key it is for (default: the server's first key) and its documents. */
interface SeedFileEntry {
  api_key?: unknown;
  documents?: unknown;
}

/**
 * Seeds from a `--seed-file` at start-up: a JSON object `{"api_key"?, "documents": [...]}` or an array
 * of them. A tenant that already has documents is left alone, so restarting on the same data dir
 * does not seed twice. Throws (naming the file) on anything it cannot apply.
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
  let created = 0;
  for (const entry of (Array.isArray(parsed) ? parsed : [parsed]) as SeedFileEntry[]) {
    const key = entry?.api_key ?? apiKeys[0];
    const tenant = typeof key === 'string' ? tenantOf(key) : undefined;
    if (!tenant) throw new Error(`seed file ${path}: api_key ${JSON.stringify(key)} is not a key this server accepts`);
    let seeds: Seed[];
    try {
      seeds = parseSeeds({ documents: entry.documents });
    } catch (error) {
      const fields = (error as { extra?: { errors?: FieldError[] } }).extra?.errors ?? [];
      throw new Error(`seed file ${path}: ${fields.map((f) => `${f.name} ${f.message}`).join('; ') || String(error)}`);
    }
    if ((await deps.store.list(tenant, { page: 1, limit: 1 })).total > 0) continue;
    created += (await seedDocuments(deps, tenant, seeds)).length;
  }
  return created;
}
