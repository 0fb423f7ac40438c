import autocannon from 'autocannon';

/** What one load run measured. */
export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses whose status was not the expected one, plus socket errors and timeouts. */
  unexpected: number;
  total: number;
  /** How many answers had each status, e.g. `{ 202: 20 }`. */
  statuses: Record<number, number>;
}

/** Options of {@link measure}. */
export interface MeasureOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Buffer;
  /** The status every response should have; anything else is counted as unexpected. */
  expectStatus: number;
  connections?: number;
  durationSec?: number;
  /** Stop after this many requests instead of after `durationSec`. */
  amount?: number;
  /** Send at this many requests per second in all (an open load below saturation) instead of as fast as answers come. */
  overallRate?: number;
}

/**
 * Loads one URL with autocannon (its node API) and reports requests/s, latency percentiles and
 * how many answers were not the expected status.
 * @example await measure({ url: 'http://127.0.0.1:4010/api/v1/documents/get_documents', expectStatus: 200 })
 */
export async function measure({
  url,
  method = 'GET',
  headers,
  body,
  expectStatus,
  connections = 10,
  durationSec = 10,
  amount,
  overallRate,
}: MeasureOptions): Promise<LoadResult> {
  let unexpected = 0;
  const statuses: Record<number, number> = {};
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        method,
        headers,
        body,
        connections,
        ...(amount ? { amount } : { duration: durationSec }),
        ...(overallRate ? { overallRate } : {}),
        timeout: 30,
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode !== expectStatus) unexpected++;
    });
  });
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    unexpected: unexpected + result.errors + result.timeouts,
    total: result.requests.total,
    statuses,
  };
}

/** A multipart body exactly as fetch would send it (undici's encoder), reusable across requests. */
export async function multipartBody(
  files: Array<{ name: string; bytes: Uint8Array; type: string }>,
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const file of files) form.append('files[]', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
