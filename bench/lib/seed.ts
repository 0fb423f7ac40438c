import { createKeyring, DEV_API_KEY } from '@docproc-kit/reference/api/keys.js';
import { stagedBytes } from '@docproc-kit/reference/http/upload/staged-file.js';
import { saltedTenants } from 'docproc-kit/server/auth.js';
import { openLowdbStore } from 'docproc-kit/store/lowdb/lowdb-store.js';

/** The word every seeded document's text contains once, at a position that varies. */
export const SEED_WORD = 'quetzal';

/** The text of the n-th seeded document: a page of words, and {@link SEED_WORD} in every 1000th. */
export function seededText(n: number): string {
  const words = `Seeded document ${n}. Freight invoice for harbor logistics, pallets and containers. `.repeat(8);
  return n % 1000 === 0 ? `${words}${SEED_WORD} ${n}` : words;
}

/**
 * Fills a data dir with `count` completed documents of the dev key's tenant, through the store
 * (as uploads and finished runs would, minus HTTP and extraction), each with a page of text.
 * Only every 1000th document's text contains {@link SEED_WORD}, so a search must scan everything.
 * @example await seedStore('/tmp/bench-10k', 10_000);
 */
export async function seedStore(dataDir: string, count: number): Promise<void> {
  const store = await openLowdbStore(dataDir);
  try {
    const tenant = createKeyring([DEV_API_KEY], saltedTenants(store.tenantSalt)).tenantOf(DEV_API_KEY)!;
    const batch = 1_000;
    for (let start = 0; start < count; start += batch) {
      const size = Math.min(batch, count - start);
      const files = await Promise.all(
        Array.from({ length: size }, async (_, i) => {
          const n = start + i;
          const bytes = new TextEncoder().encode(`%PDF-1.4\n% seeded document ${n}\n%%EOF\n`);
          return {
            tenant,
            filename: `seeded-${n}.pdf`,
            content_type: 'application/pdf' as const,
            size_bytes: bytes.length,
            file: stagedBytes(bytes),
          };
        }),
      );
      const now = new Date(Date.UTC(2024, 0, 1) + start * 1000).toISOString();
      const records = await store.insert(files, now);
      await Promise.all(
        records.map((record, i) => {
          const n = start + i;
          const text = seededText(n);
          return store.update(record.id, () => ({ record: { ...record, status: 'completed', processed_at: now, updated_at: now }, text }));
        }),
      );
    }
  } finally {
    await store.close();
  }
}
