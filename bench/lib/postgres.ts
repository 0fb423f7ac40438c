import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import { createKeyring, DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';
import { saltedTenants } from 'docproc-kit/server/auth.js';
import { openDatabase } from 'docproc-kit/store/postgres/database.js';
import { openPostgresStore } from 'docproc-kit/store/postgres/postgres-store.js';
import { SEED_WORD, seededText } from './seed.js';

/**
 * Fills a new PostgreSQL database with the same `count` completed documents {@link seedStore} puts in a
 * data dir (names, texts, times, one in 1000 with {@link SEED_WORD}), in the store's own format, by SQL in
 * batches of 1000: through the store it would be two transactions a document. Then VACUUM ANALYZE, the
 * state autovacuum keeps a database in.
 * @example await seedPostgres(url, 100_000);
 */
export async function seedPostgres(url: string, count: number): Promise<void> {
  // Migrates and makes the tenant salt, as a server's start-up would.
  const store = await openPostgresStore(url);
  const tenant = createKeyring([DEV_API_KEY], saltedTenants(store.tenantSalt)).tenantOf(DEV_API_KEY)!;
  await store.close();
  const db = openDatabase(url);
  try {
    const batch = 1_000;
    for (let start = 0; start < count; start += batch) {
      const size = Math.min(batch, count - start);
      const now = new Date(Date.UTC(2024, 0, 1) + start * 1000).toISOString();
      const numbers = Array.from({ length: size }, (_, i) => start + i);
      const names = numbers.map((n) => `seeded-${n}.pdf`);
      const texts = numbers.map(seededText);
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `INSERT INTO docproc.documents (id, tenant, filename, content_type, size_bytes, status, attempts, created_at, updated_at, processed_at,
             content, folded_name, folded_content)
           SELECT nextval('docproc.document_ids'), $1, name, 'application/pdf', 40, 'completed', 1, $2, $2, $2, text, folded_name, folded_text
           FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS s(name, folded_name, text, folded_text)
           RETURNING id`,
          [tenant, now, names, names.map(foldForSearch), texts, texts.map(foldForSearch)],
        );
        await tx.query(
          `INSERT INTO docproc.files (id, bytes) SELECT id, convert_to('%PDF-1.4' || chr(10) || '% seeded document ' || id || chr(10) || '%%EOF', 'UTF8')
           FROM unnest($1::bigint[]) AS s(id)`,
          [rows.map((r) => r.id)],
        );
      });
    }
    await db.query('VACUUM ANALYZE');
  } finally {
    await db.close();
  }
}

export { SEED_WORD };
