import { type ListValues, listValuesFromParameters } from '@docproc-kit/contract/list-values.js';
import type { Contract } from '@docproc-kit/contract/load-contract.js';
import { LIMITS_EXTENSION, uploadLimitsFromExtension } from '@docproc-kit/contract/upload-limits.js';
import type { OpenAPIV3_1 } from 'openapi-types';

/** The documented values the scenarios depend on, read from the contract under test (so --spec works). */
export interface ContractFacts extends ListValues {
  /** The multipart field files are sent under (`files[]`). */
  fileField: string;
  /** The upload limits the contract documents as defaults (`x-default-limits`), where it documents them. */
  uploadLimits: { maxFiles?: number; maxFileBytes?: number };
  /**
   * Paths the API does not have, each under the contract's shared prefix: beside the operations, one level
   * above them, and below one (`/api/v1/documents/no-such-operation`, `/api/v1/no-such-resource`, ...).
   */
  unknownPaths: string[];
}

/**
 * Reads the facts the scenarios need; throws when the contract lacks one (the suite cannot judge without it).
 * @example const { defaultLimit } = contractFacts(contract); // 20 for the bundled contract
 */
export function contractFacts(contract: Contract): ContractFacts {
  const list = listValuesFromParameters(
    (contract.operation('listDocuments')?.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[],
  );
  const upload = contract.operation('uploadDocuments')?.definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const schema = upload?.content['multipart/form-data']?.schema as OpenAPIV3_1.SchemaObject | undefined;
  const fileField = (schema?.required ?? Object.keys(schema?.properties ?? {}))[0];
  if (!fileField) throw new Error('the contract documents no multipart file field');
  // Another contract version (--spec) may document no default limits: the suite then assumes none.
  const extension = (contract.operation('uploadDocuments')?.definition as Record<string, unknown> | undefined)?.[LIMITS_EXTENSION];
  const uploadLimits = extension === undefined ? {} : uploadLimitsFromExtension(extension);
  return { ...list, fileField, uploadLimits, unknownPaths: unknownPaths(contract) };
}

function unknownPaths(contract: Contract): string[] {
  // The deepest path prefix every operation shares (`/api/v1/documents`), and the one above it.
  const segments = contract.operations.map((o) => o.path.split('/'));
  const first = segments[0] ?? [''];
  let depth = 0;
  while (depth < first.length - 1 && segments.every((p) => p[depth] === first[depth])) depth++;
  const common = first.slice(0, depth).join('/');
  const parent = first.slice(0, Math.max(depth - 1, 1)).join('/');
  const list = contract.operation('listDocuments')?.path;
  return [`${common}/no-such-operation`, `${parent}/no-such-resource`, ...(list ? [`${list}/extra`] : [])];
}

/**
 * Path ids that are not a positive integer within 2^53-1, each a 400 on every `{document_id}`
 * operation: a word, zero, a negative, a fraction, 30 digits, and 2^53 (one past the largest).
 */
export const INVALID_DOCUMENT_IDS = ['abc', '0', '-1', '1.5', '123456789012345678901234567890', '9007199254740992'] as const;

/**
 * A path id that is not even valid percent-encoding, sent as it is (not encoded again): still not a positive
 * integer, so a 400 too. A router that fails to decode the segment and lets the error reach its last-resort
 * handler answers a 500 here.
 */
export const UNDECODABLE_DOCUMENT_ID = '%zz';

/** The filename limit of the upload's 202 (`documents[].filename.maxLength`), where the contract states one. */
export function filenameMaxLength(contract: Contract): number | undefined {
  const media = contract.response('uploadDocuments', 202)?.content?.['application/json'];
  const documents = propertyOf(media?.schema, 'documents');
  const filename = propertyOf((documents as { items?: unknown } | undefined)?.items, 'filename') as OpenAPIV3_1.SchemaObject | undefined;
  return typeof filename?.maxLength === 'number' ? filename.maxLength : undefined;
}

function propertyOf(schema: unknown, name: string): unknown {
  const node = schema as { properties?: Record<string, unknown>; allOf?: unknown[] } | undefined;
  if (node?.properties?.[name] !== undefined) return node.properties[name];
  for (const branch of node?.allOf ?? []) {
    const found = propertyOf(branch, name);
    if (found !== undefined) return found;
  }
  return undefined;
}
