import type { createDocprocClient } from '@docproc-kit/client';

type Client = ReturnType<typeof createDocprocClient>;

/** A document as a seed keeps it: everything the answers show but its id, type, size and timestamps. */
export interface SeedView {
  filename: string;
  status: string;
  attempts: number;
  error: unknown;
  content?: string | null;
}

const viewOf = (doc: Record<string, unknown>): SeedView => ({
  filename: doc.filename as string,
  status: doc.status as string,
  attempts: doc.attempts as number,
  error: doc.error,
  ...('content' in doc ? { content: doc.content as string | null } : {}),
});

/** The lists (every filter, searches, a second page) and reads {@link seedViews} asks for. */
export const SEED_QUERIES = [
  {},
  { status_filter: 'completed' as const },
  { status_filter: 'failed' as const },
  { status_filter: 'processing' as const },
  { search: 'pelican' },
  { search: 'sourdough' },
  { search: 'bravo' },
  { search: 'corrupt' },
  { search: '.png' },
  { limit: 2, page: 2 },
];

/**
 * What a client sees of a service's documents, ids aside: each of {@link SEED_QUERIES}'s lists, and a
 * read of every document (by filename, in list order).
 * @example expect(await seedViews(sandboxClient)).toEqual(await seedViews(realClient));
 */
export async function seedViews(client: Client): Promise<{ lists: SeedView[][]; reads: SeedView[] }> {
  const lists: SeedView[][] = [];
  for (const query of SEED_QUERIES) {
    const { data, error } = await client.listDocuments(query);
    if (!data) throw new Error(`list ${JSON.stringify(query)} failed: ${JSON.stringify(error)}`);
    lists.push(data.documents.map((d) => viewOf(d as unknown as Record<string, unknown>)));
  }
  const all = (await client.listDocuments({ limit: 100 })).data!.documents;
  const reads: SeedView[] = [];
  for (const doc of all) reads.push(viewOf((await client.getDocument(doc.document_id)).data as unknown as Record<string, unknown>));
  return { lists, reads };
}

/**
 * The id of the document of this filename, as the client's service numbers it.
 * @example await idOf(client, 'corrupt.pdf');
 */
export async function idOf(client: Client, filename: string): Promise<number> {
  const found = (await client.listDocuments({ limit: 100 })).data!.documents.find((d) => d.filename === filename);
  if (!found) throw new Error(`no document ${filename}`);
  return found.document_id;
}

/**
 * Retries a failed document and follows it to the end of its run: the 202's document, and the finished one.
 * @example const { accepted, finished } = await retryToEnd(client, id);
 */
export async function retryToEnd(client: Client, id: number) {
  const before = (await client.getDocument(id)).data!;
  const accepted = await client.retryDocument(id);
  const finished = await client.waitForDocument(id, { timeoutMs: 30_000, initialIntervalMs: 20 });
  return { before, accepted: { status: accepted.response?.status, data: accepted.data }, finished: finished.data };
}
