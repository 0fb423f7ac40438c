import { bridgeFetch, type FetchBridge } from '@docproc-kit/test-support/fetch-bridge.js';
import { checksNotPassed, fullProfileArgs, runSuite, type SuiteRun } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocprocFetch } from './docproc-fetch.js';

// createDocprocFetch judged by the full conformance profile: the suite runs in its own process, so a tiny
// server on a port hands each of its requests to the fetch mock. Limits as in packages/conformance/test/full-profile.test.ts.
const KEYS = ['fetch-key', 'fetch-second-key'];
const MAX_FILE_BYTES = 65_536;
const BASE_URL = 'http://docproc.fetch.test';
const docprocFetch = createDocprocFetch({ apiKeys: KEYS, baseUrl: BASE_URL, processingDelayMs: 200, maxFileBytes: MAX_FILE_BYTES });
let bridge: FetchBridge;
let run: SuiteRun;

beforeAll(async () => {
  bridge = await bridgeFetch(docprocFetch, BASE_URL);
  run = await runSuite(fullProfileArgs(bridge.baseUrl, { keys: KEYS, maxFileBytes: MAX_FILE_BYTES, requestTimeoutMs: 20_000 }), {
    timeoutMs: 240_000,
  });
}, 300_000);
afterAll(async () => {
  await bridge?.close();
  await docprocFetch.close();
});

describe('createDocprocFetch, judged by the full conformance profile', () => {
  // It has no OCR engine (README: What it does not do), so a legible scan completes with `content` "", which the
  // contract says only of a file with no text on it: lifecycle.scan-read-by-ocr fails, and nothing else does.
  it('passes every check, each one exercised, but the one its missing OCR fails', () => {
    expect(run.code, run.output).toBe(1);
    expect(checksNotPassed(run), run.output).toEqual([expect.stringMatching(/^lifecycle\.scan-read-by-ocr: failed/)]);
  });
});
