// Test-only: broken servers whose defect shows only over a sequence of operations or when requests race:
// the model run and the race checks must name each one.

import {
  eachDocument,
  editJson,
  type ProxyRequest,
  type ProxyResponse,
  splitMultipart,
  type Upstream,
} from '@docproc-kit/test-support/mutation-proxy.js';
import { echoedRequestId, isList, isRetry, isUpload, problem, searchNamesOnly } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';

// Every racy mutant takes this long between reading the state and writing it, so requests sent together
// always meet inside the window, however busy the machine, and requests sent one after another never do.
const WINDOW_MS = 30;
const sleep = () => new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
const isRead = (r: ProxyRequest) => r.method === 'GET' && (r.url.startsWith('/api/v1/documents/get_document/') || isList(r));

/**
 * A retry that reads the document, then writes without a lock: every retry that read it finished before
 * another wrote says 202, though only one run starts (a lost update).
 */
function lostUpdateRetry(): (request: ProxyRequest, upstream: Upstream) => Promise<ProxyResponse> {
  return async (request, upstream) => {
    if (!isRetry(request)) return upstream(request);
    const read = await upstream({
      ...request,
      method: 'GET',
      body: Buffer.alloc(0),
      url: request.url.replace('retry_documents', 'get_document'),
    });
    const before = read.status === 200 ? (JSON.parse(read.body.toString()) as Record<string, unknown>) : undefined;
    await sleep();
    const res = await upstream(request);
    if (res.status !== 409 || !before || before.status === 'processing') return res;
    const now = new Date().toISOString();
    const restarted = {
      ...before,
      status: 'processing',
      attempts: Number(before.attempts) + 1,
      content: null,
      error: null,
      processed_at: null,
      updated_at: now,
    };
    return { status: 202, headers: { ...res.headers, 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(restarted)) };
  };
}

/**
 * An Idempotency-Key checked, then remembered once the upload is stored (no claim in between): repeats
 * that arrive while the first is in flight each make a set of documents. Sequential repeats still replay.
 */
function idempotencyCheckThenAct(): (request: ProxyRequest, upstream: Upstream) => Promise<ProxyResponse> {
  const remembered = new Map<string, { files: string; response: ProxyResponse }>();
  // The same files (names and bytes, in order), whatever boundary the multipart body was written with.
  const filesOf = (r: ProxyRequest) =>
    JSON.stringify(splitMultipart(r.body, r.headers['content-type'] ?? '')?.parts.map((p) => [p.head, p.data.toString('base64')]));
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const slot = `${request.headers['x-api-key']}\n${key}`;
    const earlier = remembered.get(slot);
    if (earlier) {
      return earlier.files === filesOf(request)
        ? {
            ...earlier.response,
            headers: { ...earlier.response.headers, 'idempotent-replayed': 'true', 'x-request-id': echoedRequestId(request) },
          }
        : problem(request, 409, 'idempotency_key_reused');
    }
    const { 'idempotency-key': _, ...headers } = request.headers;
    await sleep();
    const res = await upstream({ ...request, headers });
    if (res.status === 202) remembered.set(slot, { files: filesOf(request), response: res });
    return res;
  };
}

/** Uploads that overlap in time all get the id of the first of them to be answered (a racy id counter). */
function sharedIdWhenSimultaneous(): (request: ProxyRequest, upstream: Upstream) => Promise<ProxyResponse> {
  let inFlight = 0;
  let groupId: number | undefined;
  return async (request, upstream) => {
    if (!isUpload(request)) return upstream(request);
    inFlight++;
    try {
      await sleep();
      const res = await upstream(request);
      if (res.status !== 202) return res;
      return editJson(res, (b) => {
        if (groupId === undefined) groupId = b.documents[0].document_id;
        else b.documents[0].document_id = groupId;
      });
    } finally {
      if (--inFlight === 0) groupId = undefined;
    }
  };
}

/** Uploads under a key whose upload failed are refused as if the failed upload had been remembered. */
function failedUploadsRemembered(): (request: ProxyRequest, upstream: Upstream) => Promise<ProxyResponse> {
  const failed = new Set<string>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const slot = `${request.headers['x-api-key']}\n${key}`;
    if (failed.has(slot)) return problem(request, 409, 'idempotency_key_reused');
    const res = await upstream(request);
    if (res.status >= 400 && res.status < 500) failed.add(slot);
    return res;
  };
}

// A model run stops at the first difference, so only a run that never meets its defect takes this long: a
// defect shows within a few sequences, and 150 make missing one vanishingly unlikely.
const modelBudget = () => ({ modelRuns: 150, modelTimeMs: 60_000 });

/** Stateful defects, each with the check that names it (run with the model or the race scenarios only). */
export const statefulMutants: Mutant[] = [
  {
    name: 'updated-at-frozen',
    defect: 'updated_at stays the upload time when a run ends or a retry starts one',
    only: ['model'],
    options: modelBudget,
    fails: ['lifecycle.updated-at-moves'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            d.updated_at = d.created_at;
          }),
        ),
    }),
  },
  {
    name: 'timestamps-local-time-as-utc',
    defect: 'every timestamp is the local time of a server two hours east of UTC, written with a Z',
    only: ['model'],
    options: modelBudget,
    fails: ['lifecycle.timestamps-on-the-clock'],
    mutation: () => ({
      response: (res) =>
        editJson(res, (b) =>
          eachDocument(b, (d) => {
            for (const field of ['created_at', 'updated_at', 'processed_at'])
              if (typeof d[field] === 'string') d[field] = new Date(Date.parse(d[field] as string) + 2 * 3_600_000).toISOString();
          }),
        ),
    }),
  },
  {
    name: 'processed-at-restamped-on-read',
    defect: 'processed_at (and updated_at) of a finished document are the time it was read',
    only: ['model'],
    options: modelBudget,
    fails: ['lifecycle.processed-at'],
    mutation: () => ({
      response: (res, req) =>
        isRead(req) && res.status === 200
          ? editJson(res, (b) =>
              eachDocument(b, (d) => {
                if (d.status === 'processing') return;
                const now = new Date().toISOString();
                d.processed_at = now;
                d.updated_at = now;
              }),
            )
          : res,
    }),
  },
  {
    name: 'failed-upload-key-refused-later',
    defect: 'a failed upload is remembered under its Idempotency-Key: the key is refused afterwards',
    only: ['model'],
    options: modelBudget,
    fails: ['upload.idempotency-lifecycle'],
    mutation: () => ({ respond: failedUploadsRemembered() }),
  },
  {
    name: 'search-folds-ascii-only',
    defect: 'search ignores letter case for ASCII letters only (É does not find é)',
    only: ['model'],
    options: modelBudget,
    fails: ['model.lists'],
    mutation: () => ({
      respond: (req, upstream) => {
        const term = new URL(req.url, 'http://x').searchParams.get('search') ?? '';
        if (![...term].some((c) => c.charCodeAt(0) > 0x7f)) return upstream(req);
        return searchNamesOnly(req, upstream, (filename) => asciiLower(filename).includes(asciiLower(term)));
      },
    }),
  },
  {
    name: 'past-end-drops-totals',
    defect: 'a page past the end says total 0',
    only: ['model'],
    options: modelBudget,
    fails: ['model.lists'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              if (b.documents.length === 0 && b.pagination.page > 1) Object.assign(b.pagination, { total: 0, total_pages: 0 });
            })
          : res,
    }),
  },
  {
    name: 'list-size-off-by-one',
    defect: 'lists report size_bytes one higher than the file',
    only: ['model'],
    options: modelBudget,
    fails: ['model.documents'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) =>
              eachDocument(b, (d) => {
                d.size_bytes = Number(d.size_bytes) + 1;
              }),
            )
          : res,
    }),
  },
  {
    name: 'retry-lost-update',
    defect: 'simultaneous retries of a finished document all say 202 (the status is checked, then written without a lock)',
    only: ['retry'],
    fails: ['retry.race-finished'],
    mutation: () => ({ respond: lostUpdateRetry() }),
  },
  {
    name: 'idempotency-check-then-act',
    defect: 'an Idempotency-Key is remembered only once its upload is stored: simultaneous repeats each make documents',
    only: ['upload'],
    fails: ['upload.race-same-key', 'upload.idempotency-key-in-use'],
    mutation: () => ({ respond: idempotencyCheckThenAct() }),
  },
  {
    name: 'simultaneous-uploads-share-an-id',
    defect: "an upload answered while another is in flight gets that one's id",
    only: ['upload'],
    fails: ['upload.distinct-ids'],
    mutation: () => ({ respond: sharedIdWhenSimultaneous() }),
  },
];
