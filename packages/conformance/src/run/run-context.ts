import { type Contract, contractFromDocument } from '@docproc-kit/contract/load-contract.js';
import type { ConformanceSuiteConfig } from '../definitions/config.js';
import { isDirect } from '../definitions/transport-settings.js';
import type { RunContext } from '../harness/registry.js';
import { createDispatcher } from '../transport/dispatcher.js';
import { createPacer, createRunGate } from '../transport/transient.js';

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
        maxUnanswered: config.maxUnanswered,
      }),
      pacer: createPacer(config.rateLimit, 1),
    },
    close: async () => {
      await dispatcher?.close();
    },
  };
}
