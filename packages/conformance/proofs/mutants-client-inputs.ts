// Test-only: one defect per input class of the oracle's sequence of what real clients send
// (src/oracle/client-inputs-sequence.ts), each touching only requests of its class, so that sequence is
// what kills it (the run stops at the first difference: each runs alone and fails one oracle check).

import { joinMultipart, type ProxyRequest, splitMultipart } from '@docproc-kit/test-support/mutation-proxy.js';
import { isUpload, problem } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';
import { oracle } from './mutants-oracle.js';

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
];
