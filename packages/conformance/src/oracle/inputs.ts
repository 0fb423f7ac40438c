import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { type BoundaryCase, boundaryRules, filenameMaxLength, lenientSpellings } from '../checks/boundary-cases.js';
import { credentialCases } from '../checks/credential-places.js';
import type { CredentialPlace } from '../definitions/exchange.js';
import { type PartitionCatalog, partitionCatalog } from '../inputs/partition-catalog.js';
import { EVERY_VISIBLE_ASCII_KIND } from '../inputs/prose-partitions.js';
import { OPEN_INTEGER_SPELLINGS } from '../rules/open-readings.js';

// The values a sequence sends, read from the contract the run judges: every constraint it states on a
// request (a minimum, a maximum, a length, an enum, a pattern, the filename limit, the prose's NUL rule)
// gives its boundary and neighbours through the suite's boundary rules (checks/boundary-cases.ts), so a
// constraint added to the contract reaches the oracle's sequences with no code here.

/** A list parameter and the values the contract's constraints give it. */
export interface ListParameter {
  name: string;
  schema: OpenAPIV3_1.SchemaObject;
  /** Its boundary cases (each with whether the contract accepts it). */
  edges: BoundaryCase[];
  /** A value of each of its partitions in the catalogue that has one (`sameAs`: a spelling read either way). */
  partitions: Array<{ id: string; value: string; sameAs?: string }>;
}

/** What a sequence draws its request values from. */
export interface OracleInputs {
  list: ListParameter[];
  /** Boundary cases of `document_id` and values of its refused partitions, none of which may name a document the sequence made. */
  ids: BoundaryCase[];
  filenames: BoundaryCase[];
  idempotencyKeys: BoundaryCase[];
  /** X-Request-Id values at and past the limits the contract states for the header it echoes. */
  requestIds: string[];
  /** The document types (`DocumentContentType`): what a part may declare, besides two the contract never names. */
  declared: string[];
  maxFilename: number;
  /** The longest `search` the contract allows, if it bounds it. */
  searchMax: number | undefined;
  /** An undocumented place for the run's key (the first of the credential cases), if the contract documents a key at all. */
  misplacedKey: CredentialPlace | undefined;
}

const schemaOf = (p: OpenAPIV3_1.ParameterObject) => (p.schema ?? {}) as OpenAPIV3_1.SchemaObject;

// Lengths at and past the limits are made of letters and digits, so each tells of its length alone; the
// catalogue's value holding every visible ASCII kind tells of the alphabet.
const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function requestIdValues(contract: Contract, catalog: PartitionCatalog): string[] {
  const header = (contract.document.components?.headers?.XRequestId ?? {}) as OpenAPIV3_1.HeaderObject;
  const schema = (header.schema ?? {}) as OpenAPIV3_1.SchemaObject;
  const max = schema.maxLength ?? 200;
  const fill = (n: number) => Array.from({ length: n }, (_, i) => ALNUM[i % ALNUM.length]).join('');
  const everyKind = catalog
    .scalar('listDocuments', 'header X-Request-Id')
    ?.partitions.find((p) => p.id === EVERY_VISIBLE_ASCII_KIND)?.value;
  return [fill(max), fill(max + 1), `${fill(8)} ${fill(8)}`, fill(schema.minLength ?? 1), '', ...(everyKind ? [everyKind] : [])];
}

/**
 * The values of every constrained input, for sequences named by `token`.
 * @example contractInputs(contract, 'conformance-run1-oracle-s1z').list.map((p) => p.name) // ['page', 'limit', 'status_filter', 'search']
 */
export function contractInputs(contract: Contract, token: string): OracleInputs {
  const rules = boundaryRules(contract, token);
  const catalog = partitionCatalog(contract, { token });
  const valuesOf = (operation: string, input: string) =>
    (catalog.scalar(operation, input)?.partitions ?? []).flatMap((p) =>
      p.value === undefined ? [] : [{ id: p.id, value: p.value, ...(p.sameAs !== undefined ? { sameAs: p.sameAs } : {}) }],
    );
  const edgesOf = (location: string, name: string) =>
    rules.filter((r) => r.location === location && r.name.toLowerCase() === name.toLowerCase()).flatMap((r) => r.cases);
  const listing = contract.operation('listDocuments')?.definition;
  const list = ((listing?.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
    .filter((p) => p.in === 'query')
    .map((p) => ({
      name: p.name,
      schema: schemaOf(p),
      edges: edgesOf('query', p.name),
      partitions: valuesOf('listDocuments', `query ${p.name}`),
    }));
  const upload = contract.operation('uploadDocuments')?.definition;
  const keyHeader = ((upload?.parameters ?? []) as OpenAPIV3_1.ParameterObject[]).find(
    (p) => p.in === 'header' && /idempotency/i.test(p.name),
  );
  const types = (contract.document.components?.schemas?.DocumentContentType as OpenAPIV3_1.SchemaObject | undefined)?.enum ?? [];
  const search = list.find((p) => p.name === 'search');
  return {
    list,
    // An accepted small id may name a real document on the target (another run's): only the far ones are sent.
    ids: [
      ...edgesOf('path', 'document_id').filter((c) => c.expect === 'refuse' || Number(c.sameAs ?? c.value) > 1e15),
      ...refusedIds(valuesOf('getDocument', 'path document_id')),
    ],
    filenames: rules.filter((r) => r.location === 'filename').flatMap((r) => r.cases),
    // A key the target accepts is remembered for a day: only one holding the token is the sequence's own.
    idempotencyKeys: keyHeader ? edgesOf('header', keyHeader.name).filter((c) => c.expect === 'refuse' || c.value.includes(token)) : [],
    requestIds: requestIdValues(contract, catalog),
    declared: [...(types as string[]), 'application/octet-stream', 'text/plain'],
    maxFilename: filenameMaxLength(contract) ?? 255,
    searchMax: search?.schema.maxLength,
    misplacedKey: credentialCases(contract)[0]?.place,
  };
}

/** The path id partitions no document can be named by: below the minimum, above the maximum, and the refused spellings. */
function refusedIds(values: Array<{ id: string; value: string; sameAs?: string }>): BoundaryCase[] {
  return values
    .filter(
      (v) => v.id === 'value: below minimum' || v.id === 'value: above maximum' || (v.id.startsWith('spelling:') && v.sameAs === undefined),
    )
    .map((v) => ({ label: `document_id ${v.id}`, value: v.value, expect: 'refuse', profile: 'full' }));
}

/** The value `n` picks among a parameter's ordinary ones: small numbers in range, each enum value, a term holding `token`. */
export function ordinaryValue(parameter: ListParameter, n: number, token: string): string {
  const { schema } = parameter;
  if (Array.isArray(schema.enum) && schema.enum.length) return String(schema.enum[n % schema.enum.length]);
  if (schema.type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : min + 5;
    return String(Math.min(max, min + (n % 5)));
  }
  return n % 3 === 0 ? `${token}-none` : token;
}

/** The spelling `n` of {@link spelledId} that writes an id as `what` says (`'a leading zero'`, `'a plus sign'`). */
export function spellingNumber(what: string): number {
  const at = lenientSpellings(10n).findIndex((s) => s.what === what);
  if (at === -1) throw new Error(`no integer spelling is ${what}`);
  return 4 + at;
}

/** A document id written as the `n`th spelling: plain mostly, else each lenient one; `sameAs` when the contract lets it be read either way. */
export function spelledId(id: number, n: number): { value: string; sameAs?: string } {
  if (n < 4) return { value: String(id) };
  const spellings = lenientSpellings(BigInt(id));
  const { spelling, what } = spellings[(n - 4) % spellings.length]!;
  return OPEN_INTEGER_SPELLINGS.has(what) ? { value: spelling, sameAs: String(id) } : { value: spelling };
}
