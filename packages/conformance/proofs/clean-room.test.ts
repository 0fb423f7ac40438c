// The suite judged by an implementation it never shaped: the clean-room service must pass the full profile.

import { failedChecks, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildService } from './child-service.js';
import { serveCleanRoom } from './clean-room-server.js';

const KEYS = ['clean-room-key-a', 'clean-room-key-b'];
let service: ChildService | undefined;

beforeAll(async () => {
  service = await serveCleanRoom({ apiKeys: KEYS, maxFileBytes: 26_214_400, maxFiles: 20 });
}, 40_000);

afterAll(() => service?.close(), 10_000);

describe('an independent implementation written from the contract alone', () => {
  it('passes the full profile with both keys: no failing check', async () => {
    const run = await runSuite(
      [
        ...['--base-url', service!.baseUrl, '--api-key', KEYS[0]!, '--second-api-key', KEYS[1]!],
        ...['--profile', 'full', '--max-files', '20', '--max-file-bytes', '26214400'],
      ],
      { timeoutMs: 240_000 },
    );
    expect(failedChecks(run), run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
  }, 300_000);
});
