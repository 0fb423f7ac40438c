// The judging thread of `docproc proxy`: exchanges arrive as messages, are judged here, and only their log
// lines and the answers to queries go back, so judging never takes the forwarding thread's time.
import { parentPort, workerData } from 'node:worker_threads';
import type { ObservedExchange } from '@docproc-kit/conformance/observe';
import { loadBundledContract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { createLocalJudging, type JudgingSettings } from './judging.js';
import type { WorkerReply, WorkerRequest } from './judging-thread-handle.js';

const settings = workerData as JudgingSettings;
const port = parentPort!;
const contract = settings.spec === bundledSpecPath ? await loadBundledContract() : await loadContract(settings.spec);
const post = (reply: WorkerReply) => port.postMessage(reply);
const judging = createLocalJudging(settings, contract, (line) => post({ type: 'log', line }));

// Structured cloning turns Buffers into plain Uint8Arrays: the judge reads Buffers.
function revive(seen: ObservedExchange): ObservedExchange {
  const bytes = seen.responseBody.bytes as Uint8Array;
  return { ...seen, responseBody: { ...seen.responseBody, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) } };
}

port.on('message', (message: WorkerRequest) => {
  void (async () => {
    if (message.type === 'judge') {
      judging.judge(revive(message.seen));
      post({ type: 'judged' });
      return;
    }
    const result =
      message.type === 'newest'
        ? await judging.newest(message.limit)
        : message.type === 'total'
          ? await judging.total()
          : message.type === 'summary'
            ? await judging.summary()
            : message.type === 'recording'
              ? await judging.recording(message.options)
              : await judging.report();
    // As JSON: the report's checks carry their judge functions, which no message can.
    post({ type: 'answer', id: message.id, result: JSON.parse(JSON.stringify(result)) });
  })();
});
post({ type: 'ready' });
