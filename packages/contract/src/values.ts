import { type ListValues, listValuesOf, resolveRef } from './list-values.js';
import { type MediaTypes, mediaTypesOf } from './media-types.js';
import { type UploadLimits, uploadLimitsOf } from './upload-limits.js';

/** A parsed (not dereferenced) OpenAPI document: enough for the readers of `paths`, `components` and `$ref`s. */
export type RawDocument = { paths?: Record<string, unknown>; components?: Record<string, unknown> };

/** One operation of a contract, by method and path template. */
export interface OperationEntry {
  operationId: string;
  /** Lower case, as OpenAPI writes it. */
  method: string;
  /** The template, e.g. `/api/v1/documents/get_document/{document_id}`. */
  path: string;
}

/** A string the contract constrains: its length in code points and its pattern. */
export interface StringRule {
  minLength: number;
  maxLength: number;
  /** The schema's `pattern`, as written. */
  pattern: string;
}

/**
 * Every value the servers take from the contract instead of restating it. `npm run generate` writes the
 * bundled contract's values into src/generated/contract-values.ts, so they are known without parsing YAML
 * at start-up, in Node and in browsers alike; `npm run check:drift` keeps that file in step.
 */
export interface ContractValues {
  operations: OperationEntry[];
  list: ListValues;
  /** The upload operation's `x-default-limits`. */
  uploadLimits: UploadLimits;
  /** The media types of the upload's body and of the answers' (success, problem). */
  mediaTypes: MediaTypes;
  /** The longest filename, in code points (`DocumentSummary.filename.maxLength`). */
  maxFilenameLength: number;
  /** The largest document id (`DocumentId` maximum). */
  maxId: number;
  /** The largest page number (`Page` maximum). */
  maxPage: number;
  /** The `Idempotency-Key` header's schema. */
  idempotencyKey: StringRule;
  /** The `X-Request-Id` header's schema: a request id a server may echo. */
  requestId: StringRule;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Node = Record<string, unknown>;

function at(document: RawDocument, path: string[], what: string): Node {
  let node: unknown = document;
  for (const key of path) node = resolveRef(document, (node as Node | undefined)?.[key]);
  if (typeof node !== 'object' || node === null) throw new Error(`the contract has no ${what}`);
  return node as Node;
}

// A property of a schema, found in the schema itself or in the schemas it is `allOf`.
function propertyOf(document: RawDocument, schema: unknown, name: string): Node | undefined {
  const node = resolveRef(document, schema) as { properties?: Record<string, unknown>; allOf?: unknown[] } | undefined;
  const own = resolveRef(document, node?.properties?.[name]);
  if (typeof own === 'object' && own !== null) return own as Node;
  for (const branch of node?.allOf ?? []) {
    const found = propertyOf(document, branch, name);
    if (found) return found;
  }
  return undefined;
}

function stringRule(schema: Node, what: string): StringRule {
  const { minLength = 0, maxLength, pattern } = schema;
  if (typeof minLength !== 'number' || typeof maxLength !== 'number' || typeof pattern !== 'string')
    throw new Error(`the contract gives ${what} no maxLength and pattern`);
  return { minLength, maxLength, pattern };
}

function parameterSchema(document: RawDocument, name: string): Node {
  const parameter = at(document, ['components', 'parameters', name], `parameter ${name}`);
  return at({ ...document, parameter } as RawDocument, ['parameter', 'schema'], `schema for parameter ${name}`);
}

/**
 * Reads every value of {@link ContractValues} from a parsed contract; throws naming what it lacks.
 * @example contractValuesOf(load(yamlText)).list.maxLimit; // 100
 */
export function contractValuesOf(document: RawDocument): ContractValues {
  const operations: OperationEntry[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operationId = (item as Record<string, { operationId?: string } | undefined>)[method]?.operationId;
      if (operationId) operations.push({ operationId, method, path });
    }
  }
  const filename = propertyOf(document, at(document, ['components', 'schemas', 'DocumentSummary'], 'DocumentSummary schema'), 'filename');
  if (typeof filename?.maxLength !== 'number') throw new Error('the contract sets no maxLength for DocumentSummary.filename');
  const maximum = (name: string) => {
    const value = parameterSchema(document, name).maximum;
    if (typeof value !== 'number') throw new Error(`the contract sets no maximum for parameter ${name}`);
    return value;
  };
  return {
    operations,
    list: listValuesOf(document),
    uploadLimits: uploadLimitsOf(document),
    mediaTypes: mediaTypesOf(document),
    maxFilenameLength: filename.maxLength,
    maxId: maximum('DocumentId'),
    maxPage: maximum('Page'),
    idempotencyKey: stringRule(parameterSchema(document, 'IdempotencyKey'), 'Idempotency-Key'),
    requestId: stringRule(at(document, ['components', 'headers', 'XRequestId', 'schema'], 'X-Request-Id schema'), 'X-Request-Id'),
  };
}
