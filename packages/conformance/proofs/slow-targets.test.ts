// What a run reaches does not depend on the target's speed: against runs of 3 s (as real extraction takes),
// the default full profile still reaches every partition and state the catalogue names, from its fixed part.
// One run each, with different seeds (docs/conformance.md has three seeds of each, measured by hand).

import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { fullProfileArgs, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { describe, expect, it } from 'vitest';
import { serveCleanRoom } from './clean-room-server.js';

const KEYS = ['slow-target-key-a', 'slow-target-key-b'];
const MAX_FILE_BYTES = 26_214_400;
const RUN_MS = 3000;

const fullRun = (baseUrl: string, seed: number) =>
  runSuite(
    [
      ...fullProfileArgs(baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 60_000 }),
      '--seed',
      String(seed),
      '--min-coverage',
      '100',
    ],
    {
      timeoutMs: 400_000,
    },
  );

describe('a slow target', () => {
  it('the reference server with 3 s runs: the default full profile passes and reaches 100%', async () => {
    const server = await startReferenceServer({ apiKeys: KEYS, processingDelayMs: RUN_MS, maxFileBytes: MAX_FILE_BYTES, maxFiles: 20 });
    try {
      const run = await fullRun(server.baseUrl, 47_001);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain('Coverage 100.0%');
    } finally {
      await server.close();
    }
  }, 480_000);

  it('the clean-room service with 3 s runs, gzip, chunked answers and other header spellings: passes and reaches 100%', async () => {
    const service = await serveCleanRoom({ apiKeys: KEYS, maxFileBytes: MAX_FILE_BYTES, maxFiles: 20, runMs: RUN_MS, vary: true });
    try {
      const run = await fullRun(service.baseUrl, 47_002);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain('Coverage 100.0%');
    } finally {
      await service.close();
    }
  }, 480_000);
});
