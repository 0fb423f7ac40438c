// Test-only: one defect per input class and state of the oracle's sequence of what real clients send
// (src/oracle/client-inputs-sequence.ts), each touching only requests of its class, so that sequence is
// what kills it (the run stops at the first difference: each runs alone and fails one oracle check).

import { foldForSearch } from '@docproc-kit/contract/search-folding.js';
import {
  editJson,
  joinMultipart,
  type ProxyRequest,
  type ProxyResponse,
  splitMultipart,
  type Upstream,
} from '@docproc-kit/test-support/mutation-proxy.js';
import { echoedRequestId, isList, isUpload, json, problem } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';
import { oracle as oracleMutant } from './mutants-oracle.js';

/**
 * An oracle mutant with time for the fixed sequences before this one (the first one waits for runs of a
 * 501-page PDF): on a busy machine they can outlast the oracle's usual proof budget.
 */
const oracle = (mutant: Parameters<typeof oracleMutant>[0]): Mutant => ({
  ...oracleMutant(mutant),
  options: () => ({ oracleTimeMs: 120_000 }),
});

/** The per-file limit the proofs' server is started with (mutations.test.ts), which these mutants misapply. */
const PROOF_MAX_FILE_BYTES = 65_536;

const partsOf = (r: ProxyRequest) => (isUpload(r) ? splitMultipart(r.body, r.headers['content-type'] ?? '') : undefined);
/** A part's filename as its header writes it (quoted or `filename*`), the text a map keyed by name would use. */
const nameIn = (head: string) => /filename\*?=("[^"]*"|[^;\r\n]*)/i.exec(head)?.[1];

/** The upload with only the parts `keep` keeps. */
function filtered(
  r: ProxyRequest,
  keep: (part: { head: string; data: Buffer }, i: number, all: Array<{ head: string; data: Buffer }>) => boolean,
) {
  const split = partsOf(r);
  if (!split) return r;
  const kept = split.parts.filter(keep);
  return kept.length === split.parts.length ? r : { ...r, body: joinMultipart(split.boundary, kept) };
}

/** Where a folded term sits in a folded text: anywhere, or only where a word starts. */
const foundAt = (text: string, term: string, wordStartsOnly: boolean) => {
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1))
    if (!wordStartsOnly || at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1]!)) return true;
  return false;
};

/**
 * A search matched another way: of the documents the real search found, those `matches` misses (given the
 * folded term, filename and, read upstream when asked for, text) are dropped, the total with them.
 */
function searchMatching(matches: (term: string, name: string, text: () => Promise<string>) => Promise<boolean>) {
  return async (request: ProxyRequest, upstream: Upstream): Promise<ProxyResponse> => {
    const res = await upstream(request);
    const terms = isList(request) ? new URL(request.url, 'http://x').searchParams.getAll('search') : [];
    if (terms.length !== 1 || res.status !== 200) return res;
    const term = foldForSearch(terms[0]!);
    const body = JSON.parse(res.body.toString()) as {
      documents: Array<{ document_id: number; filename: string }>;
      pagination: { limit: number; total: number; total_pages: number };
    };
    const text = (id: number) => async () => {
      const read = await upstream({ ...request, url: `/api/v1/documents/get_document/${id}`, body: Buffer.alloc(0) });
      const content = read.status === 200 ? (JSON.parse(read.body.toString()) as { content?: unknown }).content : undefined;
      return typeof content === 'string' ? foldForSearch(content) : '';
    };
    const kept = [];
    for (const d of body.documents) if (await matches(term, foldForSearch(d.filename), text(d.document_id))) kept.push(d);
    if (kept.length === body.documents.length) return res;
    const total = body.pagination.total - (body.documents.length - kept.length);
    const pagination = { ...body.pagination, total, total_pages: Math.ceil(total / body.pagination.limit) };
    return json(200, { ...body, documents: kept, pagination }, { 'x-request-id': echoedRequestId(request) });
  };
}

export const clientInputMutants: Mutant[] = [
  oracle({
    name: 'same-name-parts-merged',
    defect: 'parts of one upload with the same filename become one document (kept in a map by name, the last one wins)',
    fails: ['oracle.upload'],
    rules: ['upload.202-one-per-file'],
    mutation: () => ({
      request: (r) =>
        filtered(r, (p, i, all) => {
          const name = nameIn(p.head);
          return name === undefined || !all.slice(i + 1).some((q) => nameIn(q.head) === name);
        }),
    }),
  }),
  oracle({
    name: 'empty-part-skipped',
    defect:
      'a 0-byte files[] part beside others is skipped (as frameworks drop an empty file input) and the rest stored, instead of the whole upload refused',
    fails: ['oracle.upload'],
    rules: ['upload.all-or-nothing'],
    mutation: () => ({
      request: (r) => {
        const split = partsOf(r);
        if (!split?.parts.some((p) => p.data.length > 0)) return r;
        return filtered(r, (p) => p.data.length > 0);
      },
    }),
  }),
  oracle({
    name: 'file-limit-on-the-total',
    defect: 'the per-file size limit is applied to the whole upload: files each under it are refused 413 when together over it',
    fails: ['oracle.upload'],
    rules: ['upload.limits'],
    mutation: () => ({
      respond: (req, upstream) => {
        const sizes = partsOf(req)?.parts.map((p) => p.data.length) ?? [];
        const total = sizes.reduce((n, s) => n + s, 0);
        return sizes.every((s) => s <= PROOF_MAX_FILE_BYTES) && total > PROOF_MAX_FILE_BYTES
          ? Promise.resolve(problem(req, 413, 'file_too_large'))
          : upstream(req);
      },
    }),
  }),
  oracle({
    name: 'validation-names-first-only',
    defect: 'a list with several invalid parameters is a 400 whose `errors` names only the first (validation stops at the first failure)',
    fails: ['oracle.list'],
    rules: ['errors.validation-400'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 400
          ? editJson(res, (b) => {
              if (Array.isArray(b.errors) && b.errors.length > 1) b.errors = b.errors.slice(0, 1);
            })
          : res,
    }),
  }),
  oracle({
    name: 'list-ordered-by-updated-at',
    defect: 'a list is ordered by updated_at (most recently changed first), so an older document retried or ended later comes first',
    fails: ['oracle.list'],
    rules: ['list.newest-first'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              const at = (d: { updated_at?: string }) => Date.parse(d.updated_at ?? '') || 0;
              b.documents.sort((x: { updated_at?: string }, y: { updated_at?: string }) => at(y) - at(x));
            })
          : res,
    }),
  }),
  oracle({
    name: 'search-filename-prefix-only',
    defect:
      'search matches a filename only at its start (a prefix index or `LIKE term%`): a term in the middle or at the end of a name misses it',
    fails: ['oracle.list'],
    rules: ['list.search'],
    mutation: () => ({
      respond: searchMatching(async (term, name, text) => name.startsWith(term) || foundAt(await text(), term, false)),
    }),
  }),
  oracle({
    name: 'search-text-word-starts-only',
    defect:
      'search matches the extracted text only where a word starts (a word index, a full-text prefix query): a term inside a word misses it',
    fails: ['oracle.list'],
    rules: ['list.search'],
    mutation: () => ({
      respond: searchMatching(async (term, name, text) => name.includes(term) || foundAt(await text(), term, true)),
    }),
  }),
];
