import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { type DocumentRecord, toSummary } from '@docproc-kit/reference/model.js';

/** Why a stored record cannot be served, or undefined when it can. */
export type RecordCheck = (record: unknown) => string | undefined;

let checking: Promise<RecordCheck> | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function outcomeProblem(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (!isObject(value) || (value.outcome !== 'completed' && value.outcome !== 'failed'))
    return '"next_outcome" is not null, {"outcome": "completed"} or {"outcome": "failed"}';
  return undefined;
}

/**
 * The check start-up runs on every stored record: its wire form must satisfy the contract's
 * `DocumentSummary` schema (so enums, limits and formats come from the contract, not from here),
 * plus what only the store knows: an owner, an error exactly when failed, a sane forced outcome.
 * The contract is loaded once per process.
 * @example const check = await recordCheck(); check(record); // '/status must be equal to one of the allowed values'
 */
export function recordCheck(): Promise<RecordCheck> {
  checking ??= loadBundledContract().then((contract) => {
    const summary = contract.document.components?.schemas?.DocumentSummary;
    if (!summary) throw new Error('The contract has no DocumentSummary schema');
    return (value) => {
      if (!isObject(value)) return 'not a JSON object';
      const record = value as unknown as DocumentRecord;
      if (typeof record.tenant !== 'string' || record.tenant === '') return '"tenant" is missing';
      const wire = contract.validate(summary, toSummary(record));
      if (!wire.valid) return wire.errors.join('; ').replace(/document_id/g, 'id');
      if ((record.status === 'failed') !== (record.error !== null))
        return `"error" must be set exactly when "status" is "failed" (status is "${record.status}")`;
      return outcomeProblem(record.next_outcome);
    };
  });
  return checking;
}
