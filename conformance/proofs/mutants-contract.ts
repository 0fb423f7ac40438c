// Test-only: the mutants of the checks derived from the contract (boundaries, where credentials may come
// from, forbidden properties, the Idempotency-Key after a refusal) and of the suite's robustness against
// odd answers. One defect each; mutants sharing a `group` run behind one proxy in one suite run.
import { isList, isUpload } from './mutant-behaviours.js';
import type { Mutant } from './mutants.js';
import { editJson, type ProxyResponse } from './mutation-proxy.js';

/** Uploads whose refusals are remembered under their Idempotency-Key and replayed to every later upload with it. */
function rememberedRefusals(): NonNullable<ReturnType<Mutant['mutation']>['respond']> {
  const refused = new Map<string, ProxyResponse>();
  return async (request, upstream) => {
    const key = request.headers['idempotency-key'];
    if (!isUpload(request) || key === undefined) return upstream(request);
    const scoped = `${request.headers['x-api-key'] ?? ''}\n${key}`;
    const earlier = refused.get(scoped);
    if (earlier) return { ...earlier, headers: { ...earlier.headers, 'x-request-id': request.headers['x-request-id'] ?? 'proxy' } };
    const response = await upstream(request);
    if (response.status >= 400 && response.status < 500) refused.set(scoped, response);
    return response;
  };
}

export const contractMutants: Mutant[] = [
  {
    name: 'list-carries-content',
    defect: 'list items carry the extracted text (`content`), which the contract forbids in lists',
    only: ['list'],
    fails: ['response.no-forbidden-properties'],
    mutation: () => ({
      response: (res, req) =>
        isList(req) && res.status === 200
          ? editJson(res, (b) => {
              for (const d of b.documents) d.content = d.status === 'completed' ? 'extracted text' : null;
            })
          : res,
    }),
  },
  {
    name: 'failed-upload-remembered',
    defect: 'a refused upload is remembered under its Idempotency-Key: valid files under it get the refusal again',
    only: ['upload'],
    fails: ['upload.idempotency-key-after-failure'],
    mutation: () => ({ respond: rememberedRefusals() }),
  },
];
