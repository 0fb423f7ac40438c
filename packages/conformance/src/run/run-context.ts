import { createDispatcher } from '../kit/dispatcher.js';
import type { RunContext } from '../kit/registry.js';
import { createPacer, createRunGate } from '../kit/transient.js';
import { isDirect } from '../kit/transport-settings.js';
import { type Contract, contractFromDocument } from '../rules/contract.js';
import type { ConformanceSuiteConfig } from './config.js';

// Compiling the contract's schemas is the costliest part of a start: a process that runs the suite again
// and again against the same contract (a harness judging many targets) compiles them once.
let lastContract: { text: string; contract: Contract } | undefined;

function contractOf(config: ConformanceSuiteConfig): Contract {
  const text = JSON.stringify(config.contractDocument);
  if (lastContract?.text !== text) lastContract = { text, contract: contractFromDocument(config.contractDocument) };
  return lastContract.contract;
}

/**
 * What the scenario files of one run share (they run in this process): the compiled contract, one
 * connection pool (none, so fetch's own, for a target reached straight with Node's certificates), the stop
 * gate and one pacer, so `--rate-limit` holds across the whole run. `close` ends the pool's connections.
 */
export function createRunContext(config: ConformanceSuiteConfig): { context: RunContext; close(): Promise<void> } {
  const dispatcher = isDirect(config.transport) ? undefined : createDispatcher(config.transport);
  return {
    context: {
      config,
      contract: contractOf(config),
      dispatcher,
      gate: createRunGate({
        stateDir: config.stateDir,
        deadlineAt: config.deadlineAt,
        ...(config.liveness ? { before: config.liveness } : {}),
      }),
      pacer: createPacer(config.rateLimit, 1),
    },
    close: async () => {
      await dispatcher?.close();
    },
  };
}
