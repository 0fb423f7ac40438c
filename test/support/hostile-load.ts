import { flateBombPdf, shapePagesPdf } from './hostile-pdfs.js';
import { sampleTreeRss } from './process-tree.js';
import { percentile } from './statistics.js';

/** The hostile PDFs (a flate bomb, 499 drawn pages, 40 huge pages), by the filename they are uploaded as. */
export async function hostilePdfs(): Promise<Array<{ name: string; bytes: Uint8Array }>> {
  return [
    { name: 'flate-bomb.pdf', bytes: await flateBombPdf() },
    { name: 'shapes-499-pages.pdf', bytes: await shapePagesPdf(499, 612, 792) },
    { name: 'huge-40-pages.pdf', bytes: await shapePagesPdf(40, 5000, 5000) },
  ];
}

/** What one run of the scenario saw. */
export interface HostileLoadResult {
  /** Peak summed RSS of the server's process tree, sampled every `sampleEveryMs`. */
  peakTreeBytes: number;
  samples: number;
  /** Every uploaded document as it ended (or as it was when time ran out). */
  documents: Array<{ tenant: number; filename: string; status: string; error?: { code: string; message: string } }>;
  /** From the uploads to the last document leaving `processing`, in ms (undefined: some never did). */
  settledAfterMs?: number;
  /** The bystander's list requests: how many and their p99 / max latency in ms. */
  lists: { count: number; p99Ms: number; maxMs: number };
}

const API = '/api/v1/documents';

/**
 * Two tenants upload the hostile PDFs at once (each tenant all of them, so the flate bomb twice) to a
 * running server, while a third tenant lists its documents back to back; the server's process tree
 * (`pid` and every descendant) is sampled from /proc until every document has ended or `deadlineMs`.
 * @example const result = await hostileLoad({ baseUrl, pid, keys: ['a', 'b', 'c'], files: await hostilePdfs() });
 */
export async function hostileLoad({
  baseUrl,
  pid,
  keys: [first, second, bystander],
  files,
  deadlineMs = 240_000,
  sampleEveryMs = 50,
}: {
  baseUrl: string;
  pid: number;
  keys: [string, string, string];
  files: Array<{ name: string; bytes: Uint8Array }>;
  deadlineMs?: number;
  sampleEveryMs?: number;
}): Promise<HostileLoadResult> {
  const sampler = sampleTreeRss(pid, sampleEveryMs);
  const started = performance.now();
  let listing = true;
  const latencies: number[] = [];
  const lister = (async () => {
    while (listing) {
      const t = performance.now();
      const res = await fetch(`${baseUrl}${API}/get_documents`, { headers: { 'x-api-key': bystander } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the bystander's list answered ${res.status}`);
      latencies.push(performance.now() - t);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const upload = async (key: string) => {
      const body = new FormData();
      for (const f of files) body.append('files[]', new Blob([new Uint8Array(f.bytes)], { type: 'application/pdf' }), f.name);
      const res = await fetch(`${baseUrl}${API}/upload_files`, { method: 'POST', headers: { 'x-api-key': key }, body });
      if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { documents: Array<{ document_id: number }> }).documents.map((d) => d.document_id);
    };
    const uploaded = await Promise.all([upload(first), upload(second)]);
    const read = async (tenant: number, id: number) => {
      const res = await fetch(`${baseUrl}${API}/get_document/${id}`, { headers: { 'x-api-key': tenant === 0 ? first : second } });
      return (await res.json()) as { filename: string; status: string; error?: { code: string; message: string } };
    };
    let documents: HostileLoadResult['documents'] = [];
    let settledAfterMs: number | undefined;
    while (performance.now() - started < deadlineMs) {
      documents = await Promise.all(uploaded.flatMap((ids, tenant) => ids.map(async (id) => ({ tenant, ...(await read(tenant, id)) }))));
      if (documents.every((d) => d.status !== 'processing')) {
        settledAfterMs = Math.round(performance.now() - started);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return {
      ...(() => {
        const { peakBytes, samples } = sampler.stop();
        return { peakTreeBytes: peakBytes, samples };
      })(),
      documents: documents.map(({ tenant, filename, status, error }) => ({ tenant, filename, status, error })),
      settledAfterMs,
      lists: { count: latencies.length, p99Ms: Math.round(percentile(latencies, 99)), maxMs: Math.round(Math.max(...latencies)) },
    };
  } finally {
    sampler.stop();
    listing = false;
    await lister.catch(() => {});
  }
}
