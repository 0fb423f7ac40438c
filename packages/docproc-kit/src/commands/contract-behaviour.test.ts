import { allMutants } from '@docproc-kit/conformance/proofs/mutant-catalog.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { runContractDiff } from '@docproc-kit/test-support/contract-diff.js';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docproc contract diff --behaviour`: BASE's conformance against a deployment of HEAD, as a real process,
// against the reference server of the same contract and against one with a promise broken (a mutant of the
// suite's catalog behind the mutation proxy).
const KEY = 'behaviour-key';
const OTHER = 'behaviour-other-key';
const mutant = allMutants.find((m) => m.name === 'unknown-key-accepted')!;
let server: RunningReferenceServer;
let broken: Awaited<ReturnType<typeof startMutationProxy>>;
beforeAll(async () => {
  server = await startReferenceServer({ apiKeys: [KEY, OTHER] });
  broken = await startMutationProxy(server.baseUrl, mutant.mutation({ primary: KEY, secondary: OTHER }));
}, 60_000);
afterAll(async () => {
  await broken?.close();
  await server?.close();
});

const behaviour = (baseUrl: string) =>
  runContractDiff(
    [
      bundledSpecPath,
      bundledSpecPath,
      '--behaviour',
      '--base-url',
      baseUrl,
      '--api-key',
      KEY,
      // The auth checks this mutant fails are of the full profile.
      '--profile',
      'full',
      '--only',
      mutant.only.join(','),
    ],
    { timeoutMs: 240_000 },
  );

describe('docproc contract diff --behaviour', () => {
  it('keeps every old promise against the reference server of the same contract: exit 0', async () => {
    const run = await behaviour(server.baseUrl);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`BASE's conformance against ${server.baseUrl}: 0 old promises broken`);
    expect(run.stdout).toContain("BASE's client types compiled against HEAD's: 0 failures");
  }, 300_000);

  it('names the promise a broken server breaks: exit 1', async () => {
    const run = await behaviour(broken.baseUrl);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    for (const check of mutant.fails) expect(run.stdout).toMatch(new RegExp(`\\n  ${check.replace('.', '\\.')}  \\S`));
    expect(run.stdout).toContain(`${mutant.fails.length} old promises broken`);
  }, 300_000);
});
