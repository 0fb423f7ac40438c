import type { Contract } from '@docproc-kit/contract/load-contract.js';
import type { Exchange } from '../definitions/exchange.js';
import { createStateTracker, documentStates, needsSecondTenant } from './document-states.js';
import { type CatalogOptions, partitionCatalog, partitionName } from './partition-catalog.js';
import { isGap } from './partitions.js';
import { OTHER_TENANT_KEY } from './prose-partitions.js';

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

/**
 * Everything a run could reach, per operation: each partition (a gap when nothing generates it) and each
 * state; `limits` names those the deployment's options put out of reach, with why.
 */
export interface CoverageUniverse {
  operations: Array<{
    operation: string;
    partitions: Array<{ name: string; gap: boolean }>;
    states: string[];
    limits?: Record<string, string>;
  }>;
}

/** The catalogue's options, and whether the run has another tenant's key. */
export interface UniverseOptions extends CatalogOptions {
  secondTenant?: boolean;
}

const NO_SECOND_KEY = "the run had no --second-api-key, so another tenant's key and documents were never sent";

/** The universe of `contract`: its catalogue's partitions and its (operation × state) pairs. */
export function coverageUniverse(contract: Contract, options: UniverseOptions = {}): CoverageUniverse {
  const { secondTenant = true, ...catalogOptions } = options;
  const states = documentStates(contract);
  return {
    operations: partitionCatalog(contract, catalogOptions).operations.map((op) => {
      const partitions = op.inputs.flatMap((i) =>
        i.partitions.map((p) => ({ name: partitionName(i.input, p.id), id: p.id, gap: isGap(p) })),
      );
      const opStates = states.find((s) => s.operation === op.operation)?.states ?? [];
      const limited = secondTenant
        ? []
        : [...partitions.filter((p) => p.id === OTHER_TENANT_KEY).map((p) => p.name), ...opStates.filter(needsSecondTenant)];
      return {
        operation: op.operation,
        partitions: partitions.map(({ name, gap }) => ({ name, gap })),
        states: opStates,
        ...(limited.length ? { limits: Object.fromEntries(limited.map((n) => [n, NO_SECOND_KEY])) } : {}),
      };
    }),
  };
}
