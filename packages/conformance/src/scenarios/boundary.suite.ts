import type { BoundaryObservation } from '../checks/boundary.js';
import { type BoundaryCase, type BoundaryRule, boundaryRules } from '../checks/boundary-cases.js';
import type { Check } from '../checks/index.js';
import type { Exchange } from '../definitions/exchange.js';
import { describe, openSuite } from '../harness/suite.js';
import { part, textPdf } from '../inputs/sample-files.js';
import { buildMultipart } from '../transport/multipart.js';

// Every constraint the run's contract states on a request, at its limit and one past it: the cases come
// from the contract (checks/boundary-cases.ts), so a limit changed there changes them with no code here.
const kit = await openSuite('boundary');
const token = kit.token();
const pdf = textPdf(['docproc conformance', 'boundary check']);
let uploads = 0;

function send(rule: BoundaryRule, c: BoundaryCase, operationId: string): Promise<Exchange> {
  const op = kit.contract.operation(operationId);
  if (!op) throw new Error(`conformance suite bug: no operation ${operationId}`);
  switch (rule.location) {
    case 'query':
      return kit.http.send({ operation: operationId, rawQuery: `${encodeURIComponent(rule.name)}=${encodeURIComponent(c.value)}` });
    case 'path':
      return kit.http.send({ operation: operationId, path: op.path.replace(`{${rule.name}}`, encodeURIComponent(c.value)) });
    case 'header':
      // Only the upload takes a header parameter; each case uploads a file of its own name.
      return kit.api.upload([part(`${token}-${++uploads}.pdf`, pdf)], { headers: { [rule.name]: c.value } });
    case 'filename': {
      if (c.via !== 'filename*') return kit.api.upload([part(c.value, pdf)]);
      // A plain fallback name beside it, as clients send filename* (RFC 6266 section 4.3).
      const field = kit.facts.fileField;
      const { body, contentType } = buildMultipart([
        { field, filename: `${token}-fallback.pdf`, filenameStar: c.value, contentType: 'application/pdf', data: pdf },
      ]);
      return kit.api.uploadRaw(body, contentType);
    }
  }
}

/** Whether `c` can be sent to `operationId` at all, and safely. */
function applies(rule: BoundaryRule, c: BoundaryCase, operationId: string): boolean {
  // An empty path segment is another path (a 404 of the router), not an empty value.
  if (rule.location === 'path' && c.value === '') return false;
  // A valid id may name one of the tenant's documents: never retried by a boundary check.
  return !(c.mayNameDocument && kit.contract.operation(operationId)?.method !== 'get');
}

for (const rule of boundaryRules(kit.contract, token)) {
  const check = kit.checkNamed(rule.checkId) as Check<BoundaryObservation>;
  describe(rule.checkId, () => {
    for (const c of rule.cases) {
      for (const operationId of rule.operations.filter((op) => applies(rule, c, op))) {
        const verdict = { accept: 'is accepted', refuse: 'is a 400', either: `is a 400 or read as ${c.sameAs}` }[c.expect];
        kit.scenario(`${operationId}: ${c.label} ${verdict}`, { profile: c.profile, checks: [check] }, async () => {
          const exchange = await send(rule, c, operationId);
          kit.check(check, { rule, case: c, exchange }, exchange);
          const refused = c.expect === 'refuse' || (c.expect === 'either' && exchange.status === 400);
          if (refused && kit.profile === 'full' && rule.location !== 'filename')
            kit.expectNamesParameter(exchange, { in: rule.location, name: rule.name });
        });
      }
    }
  });
}
