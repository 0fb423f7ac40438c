import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { failedChecks, runSuite } from '@docproc-kit/test-support/run-suite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A "next version" of the contract whose only change is the default page size: the suite must judge the
// reference server (which implements the bundled version) against it, and say exactly what differs.
const dir = mkdtempSync(join(tmpdir(), 'spec-option-'));
const nextVersion = join(dir, 'openapi-next.yaml');
let server: RunningReferenceServer;
beforeAll(async () => {
  const yaml = readFileSync(bundledSpecPath, 'utf8');
  const changed = yaml.replace(/(\n {4}Limit:\n(?: {6}.*\n)*? {8}default:) 20\n/, '$1 10\n');
  if (changed === yaml) throw new Error('the Limit parameter default was not found in the contract');
  writeFileSync(nextVersion, changed);
  server = await startReferenceServer({ apiKeys: ['spec-option-key'] });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--spec judges the target against another version of the contract', () => {
  it('fails exactly the checks about the default page size', async () => {
    const run = await runSuite(['--base-url', server.baseUrl, '--api-key', 'spec-option-key', '--spec', nextVersion, '--only', 'list']);
    expect(run.code, run.output).toBe(1);
    expect(failedChecks(run), run.output).toEqual(['list.default-limit-applied', 'list.defaults']);
    expect(run.report!.unattributed, run.output).toEqual([]);
    expect(run.report!.spec).toBe(nextVersion);
  }, 120_000);
});
