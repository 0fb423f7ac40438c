import { readdir, readFile } from 'node:fs/promises';
import { createDocprocClient } from '@docproc-kit/client';

import { fixturesDir } from '@docproc-kit/contract/fixtures.js';

/** What {@link typedClientTraffic} sent and got, for tests to assert on. */
export interface TrafficOutcome {
  /** Calls made, by operation. */
  calls: Record<'upload' | 'list' | 'get' | 'retry', number>;
  /** Ids the uploads created. */
  ids: number[];
}

/**
 * The typed client's calls against `baseUrl`: an upload of every fixture (the refused ones included), lists
 * with every filter (page, limit, each status, search), reads of every upload and of an unknown id, and
 * retries of a finished and of a processing document, with the client's own retries on.
 * @example await typedClientTraffic(proxyUrl, 'docproc-dev-key');
 */
export async function typedClientTraffic(baseUrl: string, apiKey: string): Promise<TrafficOutcome> {
  const client = createDocprocClient({
    baseUrl,
    apiKey,
    retry: { attempts: 3, maxDelayMs: 500 },
    headers: { 'x-request-id': 'proxy-traffic' },
  });
  const calls = { upload: 0, list: 0, get: 0, retry: 0 };
  const ids: number[] = [];
  const names = (await readdir(fixturesDir)).filter((name) => !name.endsWith('.md') && !name.endsWith('.ts')).sort();
  for (const name of names) {
    calls.upload += 1;
    const { data } = await client.uploadDocuments([{ name, data: await readFile(`${fixturesDir}${name}`) }]);
    ids.push(...(data?.documents.map((d) => d.document_id) ?? []));
  }
  calls.upload += 1;
  const both = await client.uploadDocuments([
    { name: 'first.pdf', data: await readFile(`${fixturesDir}text.pdf`) },
    { name: 'second.pdf', data: await readFile(`${fixturesDir}corrupt.pdf`) },
  ]);
  ids.push(...(both.data?.documents.map((d) => d.document_id) ?? []));
  const queries = [
    {},
    { page: 1 },
    { page: 2, limit: 3 },
    { page: 1000 },
    { limit: 1 },
    { limit: 100 },
    { status_filter: 'processing' as const },
    { status_filter: 'completed' as const },
    { status_filter: 'failed' as const },
    { search: 'pdf' },
    { search: 'PELICAN' },
    { search: 'nothing-matches-this' },
    { status_filter: 'failed' as const, search: 'corrupt', limit: 5 },
  ];
  for (const query of queries) {
    calls.list += 1;
    await client.listDocuments(query);
  }
  for (const id of ids) {
    calls.get += 1;
    await client.getDocument(id);
  }
  calls.get += 1;
  await client.getDocument(999_999);
  // A finished (failed) document is retried (202), a processing one is busy (409), an unknown one is a 404.
  const corrupt = ids[names.indexOf('corrupt.pdf')]!;
  calls.get += 1;
  await client.waitForDocument(corrupt, { timeoutMs: 20_000, initialIntervalMs: 20 });
  for (const id of [corrupt, corrupt, 999_999]) {
    calls.retry += 1;
    await client.retryDocument(id);
  }
  return { calls, ids };
}
