import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { SentRequest } from '../definitions/exchange.js';
import { contractFacts, filenameMaxLength } from '../rules/contract-facts.js';
import { classifyPairs, pairPartitions, refused } from './pairwise.js';
import { type Partition, type ScalarInput, scalarInput } from './partitions.js';
import { KEY_PARTITIONS, PROSE_PARAMETERS, requestIdPartitions, UNKNOWN_PARAMETER } from './prose-partitions.js';
import { classifyUpload, type UploadFacts, uploadPartitions } from './upload-partitions.js';

// The partition catalogue: for every input of every operation of the contract under test (each query
// parameter, each header, each path id, the API key, the upload as a whole and each of its parts), the
// partitions its schema and prose imply. A constraint added to the contract adds its partitions here with
// no code change; a partition nothing generates is a gap the coverage report names.

/** One input of one operation and its partitions. */
export interface CatalogInput {
  /** `query limit`, `header x-api-key`, `path document_id`, `upload`, `upload part`. */
  input: string;
  partitions: Partition[];
}

/** One operation's inputs. */
export interface OperationCatalog {
  operation: string;
  inputs: CatalogInput[];
}

/** The whole catalogue and how to classify a sent request into it. */
export interface PartitionCatalog {
  operations: OperationCatalog[];
  /** The scalar input (with its generated values) of `operation` named `input` (`query limit`). */
  scalar(operation: string, input: string): ScalarInput | undefined;
  /** The partitions (`input: partition`) a request sent to `operation` falls in. */
  classify(operation: string, request: SentRequest): string[];
}

/** `input: partition`, the name a partition goes by in the report. */
export const partitionName = (input: string, partition: string) => `${input}: ${partition}`;

/** Options: a token for generated values, and the deployment's upload limits when they are not the contract's defaults. */
export interface CatalogOptions {
  token?: string;
  maxFiles?: number;
  maxFileBytes?: number;
}

const UNKNOWN_INPUT = 'query (a name the contract does not list)';
/** The pairs of partitions of two query parameters (inputs/pairwise.ts). */
export const PAIRS_INPUT = 'query (pairs of parameters)';
const KEY_INPUT = (name: string) => `header ${name}`;
/** Several of one request's query parameters refused at once: its `400` names every one in `errors`. */
export const REFUSED_TOGETHER_INPUT = 'query (refused parameters together)';
const REFUSED_TOGETHER: Partition = {
  id: 'refused: two or more parameters at once',
  source: 'errors.validation-400',
  drawnBy: 'the oracle’s sequence of what real clients send',
};

function apiKeyHeader(contract: Contract, definition: OpenAPIV3_1.OperationObject): string | undefined {
  const schemes = contract.document.components?.securitySchemes ?? {};
  for (const requirement of definition.security ?? contract.document.security ?? [])
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name] as OpenAPIV3_1.SecuritySchemeObject | undefined;
      if (scheme?.type === 'apiKey' && scheme.in === 'header') return scheme.name;
    }
  return undefined;
}

function echoedHeader(definition: OpenAPIV3_1.OperationObject): { name: string; schema: OpenAPIV3_1.SchemaObject } | undefined {
  for (const response of Object.values(definition.responses ?? {}))
    for (const [name, header] of Object.entries((response as OpenAPIV3_1.ResponseObject).headers ?? {}))
      if (name.toLowerCase() === 'x-request-id')
        return { name, schema: ((header as OpenAPIV3_1.HeaderObject).schema ?? {}) as OpenAPIV3_1.SchemaObject };
  return undefined;
}

/**
 * The catalogue of `contract`'s operations.
 * @example partitionCatalog(contract).operations.find((o) => o.operation === 'listDocuments')?.inputs.map((i) => i.input)
 */
export function partitionCatalog(contract: Contract, options: CatalogOptions = {}): PartitionCatalog {
  const token = options.token ?? 'conformance';
  const facts = contractFacts(contract);
  const types = ((contract.document.components?.schemas?.DocumentContentType as OpenAPIV3_1.SchemaObject | undefined)?.enum ??
    []) as string[];
  const uploadFacts: UploadFacts = {
    fileField: facts.fileField,
    types,
    ...optional('maxFiles', options.maxFiles ?? facts.uploadLimits.maxFiles),
    ...optional('maxFileBytes', options.maxFileBytes ?? facts.uploadLimits.maxFileBytes),
    ...optional('maxFilename', filenameMaxLength(contract)),
  };
  const upload = uploadPartitions(uploadFacts);
  const built = contract.operations.map((op) => {
    const definition = op.definition;
    const scalars: ScalarInput[] = [];
    for (const p of (definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
      if (!['query', 'path', 'header'].includes(p.in)) continue;
      scalars.push(
        scalarInput(p.in as ScalarInput['location'], p.name, (p.schema ?? {}) as OpenAPIV3_1.SchemaObject, token, {
          optional: p.in !== 'path' && !p.required,
          repeatable: p.in === 'query',
          prose: p.in === 'query' ? (PROSE_PARAMETERS[p.name]?.(token) ?? []) : [],
        }),
      );
    }
    const echoed = echoedHeader(definition);
    if (echoed) {
      const pattern = typeof echoed.schema.pattern === 'string' ? new RegExp(echoed.schema.pattern, 'u') : undefined;
      const prose = requestIdPartitions(token, pattern);
      scalars.push(scalarInput('header', echoed.name, echoed.schema, token, { optional: true, prose }));
    }
    const keyName = apiKeyHeader(contract, definition);
    const multipart = (definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.['multipart/form-data'];
    const hasQuery = scalars.some((s) => s.location === 'query');
    const paired = scalars.filter((s) => s.location === 'query');
    const inputs: CatalogInput[] = [
      ...(keyName ? [{ input: KEY_INPUT(keyName), partitions: KEY_PARTITIONS.map(({ holds: _, ...p }) => p) }] : []),
      ...scalars.map((s) => ({ input: s.input, partitions: s.partitions })),
      ...(hasQuery ? [{ input: UNKNOWN_INPUT, partitions: [UNKNOWN_PARAMETER] }] : []),
      ...(paired.length > 1
        ? [
            { input: PAIRS_INPUT, partitions: pairPartitions(paired, "the oracle's covering sequence of lists, the sequences") },
            { input: REFUSED_TOGETHER_INPUT, partitions: [REFUSED_TOGETHER] },
          ]
        : []),
      ...(multipart
        ? [
            { input: 'upload', partitions: upload.body },
            { input: 'upload part', partitions: upload.part },
          ]
        : []),
    ];
    const classify = (request: SentRequest): string[] => {
      const found: string[] = [];
      const url = new URL(request.url);
      if (keyName) for (const k of KEY_PARTITIONS) if (k.holds(request.key)) found.push(partitionName(KEY_INPUT(keyName), k.id));
      const misplacedQuery =
        typeof request.key === 'object' && 'misplaced' in request.key && request.key.misplaced.kind === 'query'
          ? request.key.misplaced.name
          : undefined;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
      const byInput = new Map<ScalarInput, string[]>();
      for (const s of scalars) {
        const values =
          s.location === 'query'
            ? url.searchParams.getAll(s.name)
            : s.location === 'header'
              ? headers[s.name.toLowerCase()] !== undefined
                ? [headers[s.name.toLowerCase()]!]
                : []
              : pathValue(op.path, s.name, url.pathname);
        const ids = s.classify(values);
        byInput.set(s, ids);
        for (const id of ids) found.push(partitionName(s.input, id));
      }
      if (paired.length > 1)
        for (const pair of classifyPairs(
          paired,
          paired.map((s) => byInput.get(s) ?? []),
        ))
          found.push(partitionName(PAIRS_INPUT, pair));
      const refusedIn = (s: ScalarInput) => (byInput.get(s) ?? []).some((id) => s.partitions.some((p) => p.id === id && refused(p)));
      if (paired.length > 1 && paired.filter(refusedIn).length > 1) found.push(partitionName(REFUSED_TOGETHER_INPUT, REFUSED_TOGETHER.id));
      if (hasQuery) {
        const known = new Set([...scalars.filter((s) => s.location === 'query').map((s) => s.name), misplacedQuery]);
        if ([...url.searchParams.keys()].some((k) => !known.has(k))) found.push(partitionName(UNKNOWN_INPUT, UNKNOWN_PARAMETER.id));
      }
      if (multipart) {
        const sent = classifyUpload(uploadFacts, request.body);
        found.push(...sent.body.map((id) => partitionName('upload', id)), ...sent.part.map((id) => partitionName('upload part', id)));
      }
      return found;
    };
    return { catalog: { operation: op.operationId, inputs }, scalars, classify };
  });
  return {
    operations: built.map((b) => b.catalog),
    scalar: (operation, input) => built.find((b) => b.catalog.operation === operation)?.scalars.find((s) => s.input === input),
    classify: (operation, request) => built.find((b) => b.catalog.operation === operation)?.classify(request) ?? [],
  };
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

/** The value of path parameter `name` in `pathname`, matched against `template` from its end (a base URL may add a prefix). */
function pathValue(template: string, name: string, pathname: string): string[] {
  const want = template.split('/');
  const got = pathname.split('/');
  const index = want.indexOf(`{${name}}`);
  if (index === -1 || got.length < want.length) return [];
  const raw = got[got.length - want.length + index]!;
  try {
    return [decodeURIComponent(raw)];
  } catch {
    return [raw];
  }
}
