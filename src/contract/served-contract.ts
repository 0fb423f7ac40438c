import { type Contract, loadContract } from './contract.js';

let loading: Promise<Contract> | undefined;

/**
 * The bundled contract, loaded once per process, for values the server takes from it (limits,
 * schemas) rather than restating them. Not validated again: `npm test` validates it.
 * @example const contract = await servedContract();
 */
export function servedContract(): Promise<Contract> {
  loading ??= loadContract(undefined, { validate: false });
  return loading;
}

/** A schema of the contract's components, by name. */
export async function contractSchema(name: string): Promise<Record<string, unknown>> {
  const schema = ((await servedContract()).document.components?.schemas as Record<string, Record<string, unknown>> | undefined)?.[name];
  if (!schema) throw new Error(`The contract has no schema ${name}`);
  return schema;
}

type ObjectSchema = { properties?: Record<string, unknown>; allOf?: unknown[] };

/** The schema of property `name` in an object schema or any of its `allOf` branches (dereferenced). */
export function propertySchema(schema: unknown, name: string): Record<string, unknown> | undefined {
  const node = schema as ObjectSchema | undefined;
  const own = node?.properties?.[name];
  if (typeof own === 'object' && own !== null) return own as Record<string, unknown>;
  for (const branch of node?.allOf ?? []) {
    const found = propertySchema(branch, name);
    if (found) return found;
  }
  return undefined;
}

/** The longest filename an upload may carry, in characters: `DocumentSummary`'s `filename.maxLength`. */
export async function maxFilenameLength(): Promise<number> {
  const filename = propertySchema(await contractSchema('DocumentSummary'), 'filename');
  if (typeof filename?.maxLength !== 'number') throw new Error('The contract sets no maxLength for DocumentSummary.filename');
  return filename.maxLength;
}
