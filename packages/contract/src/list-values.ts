import type { OpenAPIV3_1 } from 'openapi-types';

/** What the contract decides about listing: page sizes, the longest search term, the document statuses. */
export interface ListValues {
  /** `limit` when none is given. */
  defaultLimit: number;
  /** The largest `limit`. */
  maxLimit: number;
  /** The longest `search` term, in characters. */
  maxSearchLength: number;
  /** The values of `status_filter` (the document statuses), in the contract's order. */
  statuses: string[];
}

type Parameter = Pick<OpenAPIV3_1.ParameterObject, 'name' | 'schema'>;

/**
 * Reads the list values from the list operation's dereferenced parameters; throws naming what the
 * contract does not document (nothing can judge or serve a list without it).
 * @example listValuesFromParameters(contract.operation('listDocuments').definition.parameters); // { defaultLimit: 20, ... }
 */
export function listValuesFromParameters(parameters: readonly Parameter[]): ListValues {
  const schema = (name: string) => {
    const found = parameters.find((p) => p.name === name)?.schema as OpenAPIV3_1.SchemaObject | undefined;
    if (!found) throw new Error(`the contract has no ${name} parameter on listDocuments`);
    return found;
  };
  const limit = schema('limit');
  const search = schema('search');
  const status = schema('status_filter');
  if (typeof limit.default !== 'number' || typeof limit.maximum !== 'number')
    throw new Error('the contract documents no default or maximum limit');
  if (typeof search.maxLength !== 'number') throw new Error('the contract documents no maximum search length');
  if (!Array.isArray(status.enum)) throw new Error('the contract documents no status_filter values');
  return { defaultLimit: limit.default, maxLimit: limit.maximum, maxSearchLength: search.maxLength, statuses: status.enum as string[] };
}

// The bundled contract refers to its parameters and schemas with local `$ref`s only.
/** `node`, or what its local `$ref` points at in `document` (followed until it is not a reference). */
export function resolveRef<T>(document: unknown, node: T): T {
  const ref = (node as { $ref?: unknown } | null)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolveRef(document, target as T);
}

/**
 * The list values of a parsed (not dereferenced) contract document.
 * @example listValuesOf(parse(yamlText)); // { defaultLimit: 20, maxLimit: 100, maxSearchLength: 200, statuses: [...] }
 */
export function listValuesOf(document: { paths?: Record<string, unknown> }): ListValues {
  const list = Object.values(document.paths ?? {})
    .map((item) => (item as { get?: { operationId?: string; parameters?: unknown[] } }).get)
    .find((op) => op?.operationId === 'listDocuments');
  const parameters = (list?.parameters ?? []).map((p) => {
    const parameter = resolveRef(document, p) as Parameter;
    return { ...parameter, schema: resolveRef(document, parameter.schema) };
  });
  return listValuesFromParameters(parameters);
}
