// Test-only: one defect per check of the differential run (src/oracle/), each a shortcut a real service
// takes. The run stops at the first answer that differs, so each mutant runs alone and fails one oracle check.

import { joinMultipart, type ProxyRequest, splitMultipart } from '@docproc-kit/test-support/mutation-proxy.js';
import { isList, isRetry, isUpload, problem, withQuery } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';

// Random sequences find a defect in a few seconds; a busy machine running the proofs two at a time gets
// fewer sequences into the default 10 s, so these runs start sequences for longer.
const ORACLE_TIME_MS = 30_000;
export const oracle = (mutant: Omit<Mutant, 'only' | 'options'>): Mutant => ({
  ...mutant,
  only: ['oracle'],
  options: () => ({ oracleTimeMs: ORACLE_TIME_MS }),
});

/** Percent-encodes every byte of `text`'s UTF-8 but letters, digits and `-._~` (an RFC 5987 value). */
const rfc5987 = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** A part's header block (read as Latin-1 bytes) with its filename, quoted or `filename*`, normalized to NFC. */
function nfcFilename(head: string): string {
  const utf8 = Buffer.from(head, 'latin1').toString('utf8');
  const edited = utf8
    .replace(/filename\*=UTF-8''([^;\r\n]*)/i, (_, value: string) => {
      try {
        return `filename*=UTF-8''${rfc5987(decodeURIComponent(value).normalize('NFC'))}`;
      } catch {
        return `filename*=UTF-8''${value}`;
      }
    })
    .replace(/filename="([^"]*)"/, (_, value: string) => `filename="${value.normalize('NFC')}"`);
  return Buffer.from(edited, 'utf8').toString('latin1');
}

/** An upload whose filenames reach the store normalized to NFC, as a framework that normalizes form fields keeps them. */
function normalizeFilenames(request: ProxyRequest): ProxyRequest {
  const split = isUpload(request) ? splitMultipart(request.body, request.headers['content-type'] ?? '') : undefined;
  if (!split) return request;
  return {
    ...request,
    body: joinMultipart(
      split.boundary,
      split.parts.map((p) => ({ ...p, head: nfcFilename(p.head) })),
    ),
  };
}

const RETRY_DOCUMENT = /^(\/api\/v1\/documents\/retry_documents\/)([^/?#]*)([?#].*)?$/;
const GET_DOCUMENT = /^(\/api\/v1\/documents\/get_document\/)(0[0-9]+)([?#].*)?$/;

export const oracleMutants: Mutant[] = [
  oracle({
    name: 'filename-nfc',
    defect:
      'filenames are stored normalized to NFC (a decomposed `é` comes back composed), as frameworks that normalize form fields keep them',
    fails: ['oracle.upload'],
    mutation: () => ({ request: normalizeFilenames }),
  }),
  oracle({
    name: 'search-drops-status-filter',
    defect:
      'a list with `search` ignores `status_filter` (the search query built apart from the filtered one), so the filters do not combine',
    fails: ['oracle.list'],
    mutation: () => ({
      request: (r) => (isList(r) ? withQuery(r, (q) => (q.has('search') ? q.delete('status_filter') : undefined)) : r),
    }),
  }),
  oracle({
    name: 'document-id-octal',
    defect: "a read's document id with a leading zero is read as octal (`010` is 8; `09` a 400), as strtol and int(x, 0) read it",
    fails: ['oracle.read'],
    mutation: () => ({
      respond: (req, upstream) => {
        const m = GET_DOCUMENT.exec(req.url);
        if (req.method !== 'GET' || !m) return upstream(req);
        if (/[89]/.test(m[2]!)) return Promise.resolve(problem(req, 400, 'invalid_request'));
        return upstream({ ...req, url: `${m[1]}${Number.parseInt(m[2]!, 8)}${m[3] ?? ''}` });
      },
    }),
  }),
  oracle({
    name: 'retry-id-parse-int',
    defect:
      "a retry's document id is read with parseInt (`12.0`, ` 12` and `12abc` are 12), as a route handler converting its parameter by hand does; reads stay strict",
    fails: ['oracle.retry'],
    mutation: () => ({
      request: (r) => {
        const m = RETRY_DOCUMENT.exec(r.url);
        if (!isRetry(r) || !m) return r;
        let raw: string;
        try {
          raw = decodeURIComponent(m[2]!);
        } catch {
          return r;
        }
        const id = Number.parseInt(raw, 10);
        return /^[0-9]+$/.test(raw) || !(id > 0) ? r : { ...r, url: `${m[1]}${id}${m[3] ?? ''}` };
      },
    }),
  }),
];
