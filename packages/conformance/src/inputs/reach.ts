import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { Exchange } from '../definitions/exchange.js';
import { createStateTracker, documentStates } from './document-states.js';
import { type CatalogOptions, partitionCatalog, partitionName } from './partition-catalog.js';
import { isGap } from './partitions.js';

/** What one exchange reached: the partitions its request falls in and the (operation × state) pairs it was sent to. */
export interface Reached {
  operation: string;
  partitions: string[];
  states: string[];
}

/** Classifies each exchange of one sender (a scenario file) as it is answered. */
export type ReachObserver = (exchange: Exchange) => Reached | undefined;

/**
 * An observer over `contract`'s catalogue, with its own memory of document states.
 * @example const observe = createReachObserver(contract); observe(exchange)?.partitions
 */
export function createReachObserver(contract: Contract, options: CatalogOptions = {}): ReachObserver {
  const catalog = partitionCatalog(contract, options);
  const tracker = createStateTracker(contract);
  return (exchange) => {
    const operation = exchange.target.operationId;
    if (exchange.target.kind !== 'operation' || !operation) return undefined;
    return {
      operation,
      partitions: catalog.classify(operation, exchange.request),
      states: tracker.observe(exchange).map((s) => s.state),
    };
  };
}

/** Everything a run could reach, per operation: each partition (a gap when nothing generates it) and each state. */
export interface CoverageUniverse {
  operations: Array<{ operation: string; partitions: Array<{ name: string; gap: boolean }>; states: string[] }>;
}

/** The universe of `contract`: its catalogue's partitions and its (operation × state) pairs. */
export function coverageUniverse(contract: Contract, options: CatalogOptions = {}): CoverageUniverse {
  const states = documentStates(contract);
  return {
    operations: partitionCatalog(contract, options).operations.map((op) => ({
      operation: op.operation,
      partitions: op.inputs.flatMap((i) => i.partitions.map((p) => ({ name: partitionName(i.input, p.id), gap: isGap(p) }))),
      states: states.find((s) => s.operation === op.operation)?.states ?? [],
    })),
  };
}
