import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { pathTemplate } from './path-template.js';
import { bundledSpecPath } from './paths.js';

// ajv-formats is CommonJS with a default export; under NodeNext its namespace object is what we get.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The HTTP methods an OpenAPI path item can hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** One of {@link HTTP_METHODS}. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One operation of the contract, with its dereferenced definition. */
export interface ContractOperation {
  operationId: string;
  method: HttpMethod;
  /** The path template as written, e.g. `/api/v1/documents/get_document/{document_id}`. */
  path: string;
  definition: OpenAPIV3_1.OperationObject;
}

/** The outcome of validating one value against one schema. */
export interface SchemaCheck {
  valid: boolean;
  /** One line per violation, `instancePath message`, empty when valid. */
  errors: string[];
}

/** A loaded, dereferenced contract with compiled schema validators. */
export interface Contract {
  document: OpenAPIV3_1.Document;
  operations: ContractOperation[];
  /** The operation with this id, or undefined. */
  operation(operationId: string): ContractOperation | undefined;
  /** The operation whose path template matches this concrete path and method, or undefined. */
  match(method: string, pathname: string): ContractOperation | undefined;
  /** The methods the contract defines for the path template matching `pathname` (empty when none). */
  methodsFor(pathname: string): HttpMethod[];
  /** The documented response for a status (falling back to `4XX`/`default`), or undefined. */
  response(operationId: string, status: number): OpenAPIV3_1.ResponseObject | undefined;
  /** Validates any value against any schema object of this contract (compiled once, then cached). */
  validate(schema: object, value: unknown): SchemaCheck;
}

/** Builds the ajv instance used everywhere: draft 2020-12, formats on, OpenAPI's extra keywords known. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  // OpenAPI adds these to JSON Schema; they carry no validation meaning.
  ajv.addKeyword('example').addKeyword('discriminator').addKeyword('xml').addKeyword('externalDocs');
  // `binary` marks file parts of multipart bodies; any string is a valid stand-in in examples.
  ajv.addFormat('binary', true);
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  return ajv;
}

/** Formats ajv's errors as one readable line each. */
export function formatAjvErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    const allowed = e.keyword === 'enum' ? ` (${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})` : '';
    return `${where} ${e.message ?? e.keyword}${extra}${allowed}`;
  });
}

/** Options of {@link loadContract}. */
export interface LoadContractOptions {
  /**
   * Validate the document against the OpenAPI schema first (default true). Skip it only for a document
   * `npm test` validates (the bundled one, as the reference server reads it), where it would cost time for nothing.
   */
  validate?: boolean;
}

/**
 * Loads a contract (a path or URL; the bundled one by default), validates it as OpenAPI and
 * dereferences it.
 * @example const contract = await loadContract(); contract.operation('getDocument')?.path;
 */
export async function loadContract(source: string = bundledSpecPath, { validate = true }: LoadContractOptions = {}): Promise<Contract> {
  // Imported here, not at the top: the conformance suite's workers build their contract from the document
  // the CLI already loaded (contractFromDocument) and never pay for loading swagger-parser.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  // validate() dereferences too.
  const document = (await (validate ? SwaggerParser.validate(source) : SwaggerParser.dereference(source))) as OpenAPIV3_1.Document;
  return contractFromDocument(document);
}

let bundledLoading: Promise<Contract> | undefined;

/**
 * The bundled contract dereferenced, loaded once per process, for what needs whole schemas (the store's
 * record check, the Prism mock). Not validated again: `npm test` validates it.
 * @example const summary = (await loadBundledContract()).document.components?.schemas?.DocumentSummary;
 */
export function loadBundledContract(): Promise<Contract> {
  bundledLoading ??= loadContract(bundledSpecPath, { validate: false });
  return bundledLoading;
}

/**
 * The contract of an OpenAPI document that is already validated and dereferenced (no `$ref` left).
 * @example const contract = contractFromDocument((await loadContract(spec)).document);
 */
export function contractFromDocument(document: OpenAPIV3_1.Document): Contract {
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const definition = item?.[method];
      if (definition?.operationId) operations.push({ operationId: definition.operationId, method, path, definition });
    }
  }
  const matchers = Object.keys(document.paths ?? {}).map((path) => pathTemplate(path));
  const ajv = createAjv();
  const compiled = new WeakMap<object, ValidateFunction>();

  const templateFor = (pathname: string) => matchers.find((m) => m.test(pathname))?.template;

  return {
    document,
    operations,
    operation: (operationId) => operations.find((op) => op.operationId === operationId),
    match(method, pathname) {
      const template = templateFor(pathname);
      return operations.find((op) => op.path === template && op.method === method.toLowerCase());
    },
    methodsFor(pathname) {
      const template = templateFor(pathname);
      return operations.filter((op) => op.path === template).map((op) => op.method);
    },
    response(operationId, status) {
      const responses = operations.find((op) => op.operationId === operationId)?.definition.responses ?? {};
      const found = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
      return found as OpenAPIV3_1.ResponseObject | undefined;
    },
    validate(schema, value) {
      let fn = compiled.get(schema);
      if (!fn) {
        fn = ajv.compile(schema);
        compiled.set(schema, fn);
      }
      const valid = fn(value);
      return { valid, errors: valid ? [] : formatAjvErrors(fn.errors) };
    },
  };
}
