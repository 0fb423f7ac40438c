// Test-only: a request id read as a header with parameters, as a log or tracing middleware that splits
// `value; key=...` keeps it: only the partition of X-Request-Id holding every visible ASCII kind (the
// oracle's sweep sends it on every run) carries a `;` inside the contract's alphabet.

import { editJson, type ProxyRequest, type ProxyResponse } from '@docproc-kit/test-support/mutation-proxy.js';
import type { Mutant } from './mutants.js';
import { oracle } from './mutants-oracle.js';

/** The answer with its X-Request-Id (and a problem's `request_id`) cut at the first `;` of the one sent. */
function cutAtSemicolon(response: ProxyResponse, request: ProxyRequest): ProxyResponse {
  const sent = request.headers['x-request-id'];
  if (typeof sent !== 'string' || !sent.includes(';') || response.headers['x-request-id'] !== sent) return response;
  const cut = sent.slice(0, sent.indexOf(';'));
  const edited = { ...response, headers: { ...response.headers, 'x-request-id': cut } };
  return response.status >= 400
    ? editJson(edited, (b) => {
        if (b && b.request_id === sent) b.request_id = cut;
      })
    : edited;
}

export const requestIdMutants: Mutant[] = [
  oracle({
    name: 'request-id-cut-at-semicolon',
    defect: 'the X-Request-Id echoed is cut at its first `;` (read as a header value with parameters)',
    fails: ['response.request-id-echoed'],
    mutation: () => ({ response: (res, req) => cutAtSemicolon(res, req) }),
  }),
];
