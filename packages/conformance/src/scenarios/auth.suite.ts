import { randomBytes } from 'node:crypto';
import { credentialCases, documentedKeyPlaces } from '../checks/credential-places.js';
import { checks } from '../checks/index.js';
import type { Exchange, KeyVariant } from '../definitions/exchange.js';
import { describe, openSuite } from '../harness/suite.js';
import { part, textPdf } from '../inputs/sample-files.js';
import type { Api } from '../transport/api.js';
import { keyVariant } from '../transport/http.js';

const kit = await openSuite('auth');
const { expectStatus } = kit;
const { auth } = checks;
// An id no tenant can have yet (ids are at most 2^53-1), so a request that wrongly passes changes nothing.
const UNUSED_ID = Number.MAX_SAFE_INTEGER;
const pdf = textPdf(['docproc conformance', kit.token()]);

const operations: Array<{ operation: string; send: (api: Api) => Promise<Exchange> }> = [
  { operation: 'uploadDocuments', send: (api) => api.upload([part(`${kit.token('keyless')}.pdf`, pdf)]) },
  { operation: 'listDocuments', send: (api) => api.list() },
  { operation: 'getDocument', send: (api) => api.get(UNUSED_ID) },
  { operation: 'retryDocument', send: (api) => api.retry(UNUSED_ID) },
];

const wrongKeys = [
  { label: 'an unknown key', key: `conformance-wrong-key-${randomBytes(8).toString('hex')}` },
  { label: 'an empty key', key: '' },
];

describe('x-api-key is required', () => {
  for (const { operation, send } of operations) {
    kit.scenario(`${operation} without a key is a 401`, { profile: 'contract', checks: [auth.missingKey] }, async () => {
      expectStatus(auth.missingKey, await send(kit.as('none')), 401, 'no x-api-key header');
    });
  }
});

describe('x-api-key must be a known key', () => {
  for (const { operation, send } of operations) {
    for (const { label, key } of wrongKeys) {
      kit.scenario(`${operation} with ${label} is a 401`, { profile: 'full', checks: [auth.wrongKey] }, async () => {
        expectStatus(auth.wrongKey, await send(kit.as({ literal: key })), 401, `x-api-key is ${label}`);
      });
    }
  }
});

describe('x-api-key is compared exactly', () => {
  // Plain spaces would prove nothing: HTTP strips them from header values before any server sees them.
  // U+00A0 travels as the byte 0xA0, which HTTP keeps but String.prototype.trim() removes.
  const variants: Array<{ label: string; variant: KeyVariant }> = [
    { label: 'in other letter case', variant: 'swapped-case' },
    { label: 'padded with no-break spaces', variant: 'nbsp-padded' },
  ];
  for (const v of variants) {
    kit.scenario(`the run's key ${v.label} is a 401`, { profile: 'full', checks: [auth.keyExact] }, async (tools) => {
      if (keyVariant(kit.config.apiKey, v.variant) === kit.config.apiKey)
        return tools.notExercised('the key has no letters, so it has no other letter case');
      expectStatus(auth.keyExact, await kit.as({ variant: v.variant }).list(), 401, `x-api-key is the run's key ${v.label}`);
    });
  }
});

describe('the key counts only where the security scheme puts it', () => {
  const documented = documentedKeyPlaces(kit.contract)
    .map((d) => `the ${d.name} ${d.in}`)
    .join(' or ');
  for (const { label, place } of credentialCases(kit.contract)) {
    kit.scenario(
      `the run's key in ${label}, without the header, is a 401`,
      { profile: 'contract', checks: [auth.keyOnlyInHeader] },
      async () => {
        const api = kit.as({ misplaced: place });
        const exchange =
          place.kind === 'form-field' ? await api.upload([part(`${kit.token('misplaced-key')}.pdf`, pdf)]) : await api.list({ limit: 1 });
        kit.check(auth.keyOnlyInHeader, { label, exchange, documented }, exchange);
      },
    );
  }
});

describe('the key is checked before anything else', () => {
  const invalid: Array<{ label: string; send: (api: Api) => Promise<Exchange> }> = [
    { label: 'a list with page=abc', send: (api) => api.list({ page: 'abc' }) },
    { label: 'a read of id abc', send: (api) => api.get('abc') },
    { label: 'a retry of id 0', send: (api) => api.retry(0) },
    {
      label: 'an upload with no files',
      send: (api) => api.uploadRaw(new TextEncoder().encode('--b--\r\n'), 'multipart/form-data; boundary=b'),
    },
  ];
  for (const { label, send } of invalid) {
    kit.scenario(`${label} without a key is a 401, not a 400`, { profile: 'contract', checks: [auth.checkedFirst] }, async () => {
      expectStatus(auth.checkedFirst, await send(kit.as('none')), 401, 'the key is checked before the request itself');
    });
  }
  // Frameworks that route before they authenticate (a FastAPI dependency, a Spring filter on matched routes)
  // answer these 404 and 405: the contract puts the key first. An intermediary's own 404 is warned, as ever.
  const list = kit.contract.operation('listDocuments')!;
  const documented = kit.contract.methodsFor(list.path).map((m) => m.toUpperCase());
  const undocumented = ['DELETE', 'PUT', 'PATCH', 'POST', 'GET'].find((m) => !documented.includes(m))!;
  const stray = [
    ...kit.facts.unknownPaths.map((path) => ({ label: `GET ${path}`, path, method: 'GET' })),
    { label: `${undocumented} ${list.path}`, path: list.path, method: undocumented },
  ];
  for (const { label, path, method } of stray) {
    kit.scenario(`${label} without a key is a 401, not a 404 or 405`, { profile: 'full', checks: [auth.checkedFirst] }, async () => {
      const exchange = await kit.http.send({ path, method, key: 'none' });
      expectStatus(auth.checkedFirst, exchange, 401, 'the key is checked before the path and method are');
    });
  }
  kit.scenario(
    'a read of an id that does not exist without a key is a 401, not a 404',
    { profile: 'contract', checks: [auth.checkedFirst] },
    async () => {
      expectStatus(auth.checkedFirst, await kit.as('none').get(UNUSED_ID), 401, 'the key is checked before the document is looked up');
    },
  );
});
