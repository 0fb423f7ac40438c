import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CredentialPlace } from '../definitions/exchange.js';

/** One place a client or framework commonly puts an API key, named for test names and failures. */
export interface CredentialCase {
  label: string;
  place: CredentialPlace;
}

type ApiKeyScheme = { in: string; name: string };

/** The places the contract's security schemes document for a key (`in` and `name` of each apiKey scheme). */
export function documentedKeyPlaces(contract: Contract): ApiKeyScheme[] {
  const schemes = (contract.document.components?.securitySchemes ?? {}) as Record<string, OpenAPIV3_1.SecuritySchemeObject>;
  return Object.values(schemes)
    .filter((s): s is OpenAPIV3_1.ApiKeySecurityScheme => s.type === 'apiKey')
    .map((s) => ({ in: s.in, name: s.name }));
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/**
 * Every common place for a key that the contract does not document: the documented name and its usual
 * variants in the query string, a cookie or an upload's form field, under other header names, and in
 * `Authorization` (Bearer, ApiKey, bare, Basic user or password). Each, sent without the documented
 * header, must be a 401.
 * @example credentialCases(contract).map((c) => c.label) // ['query ?x-api-key=', 'query ?api_key=', ...]
 */
export function credentialCases(contract: Contract): CredentialCase[] {
  const documented = documentedKeyPlaces(contract);
  if (documented.length === 0) return [];
  const isDocumented = (where: string, name: string) =>
    documented.some((d) => d.in === where && (where === 'header' ? d.name.toLowerCase() === name.toLowerCase() : d.name === name));
  const base = documented[0]!.name;
  const names = [
    ...new Set([
      base,
      base.replace(/-/g, '_'),
      base.replace(/^x-/i, ''),
      base.replace(/^x-/i, '').replace(/-/g, '_'),
      'api_key',
      'apiKey',
      'apikey',
      'key',
      'token',
      'access_token',
    ]),
  ];
  const cases: CredentialCase[] = [];
  for (const name of names) if (!isDocumented('query', name)) cases.push({ label: `query ?${name}=`, place: { kind: 'query', name } });
  const headers: Array<{ label: string } & Extract<CredentialPlace, { kind: 'header' }>> = [
    { label: 'Authorization: Bearer', kind: 'header', name: 'Authorization', value: (k) => `Bearer ${k}` },
    { label: 'Authorization: ApiKey', kind: 'header', name: 'Authorization', value: (k) => `ApiKey ${k}` },
    { label: 'Authorization: the bare key', kind: 'header', name: 'Authorization', value: (k) => k },
    {
      label: 'Authorization: Basic, key as user',
      kind: 'header',
      name: 'Authorization',
      value: (k) => basic(k, ''),
      curl: (k) => ['-u', `"${k}:"`],
    },
    {
      label: 'Authorization: Basic, key as password',
      kind: 'header',
      name: 'Authorization',
      value: (k) => basic('', k),
      curl: (k) => ['-u', `":${k}"`],
    },
    ...names
      .filter((n) => /^[A-Za-z0-9_-]+$/.test(n) && !isDocumented('header', n))
      .slice(0, 4)
      .map((n) => ({ label: `header ${n}:`, kind: 'header' as const, name: n, value: (k: string) => k })),
  ];
  for (const { label, ...place } of headers) if (!isDocumented('header', place.name)) cases.push({ label, place });
  for (const name of names.slice(0, 3))
    if (!isDocumented('cookie', name)) cases.push({ label: `cookie ${name}=`, place: { kind: 'cookie', name } });
  for (const name of names.slice(0, 2)) cases.push({ label: `an upload's form field ${name}`, place: { kind: 'form-field', name } });
  return cases;
}
