import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contractRoot } from '@docproc-kit/contract/paths.js';
import { runContractDiff } from '@docproc-kit/test-support/contract-diff.js';
import { describe, expect, it } from 'vitest';

// The project keeps its own promise: the contract as it is now against the contract as last released, with
// breaking changes allowed only by a recorded decision (packages/contract/ACCEPTED-BREAKS.md, or a new major
// base path). The released contract is a file in the repository (openapi/released/v<major>.<minor>.yaml,
// copied from openapi.yaml when a version is released), so the gate needs no git history: CI's clone may be
// shallow and hold no tags. When a release tag (v*) is at hand too, the gate also runs against the contract
// at that tag.
const released = join(contractRoot, 'openapi/released');
const versions = readdirSync(released)
  .filter((f) => /^v\d+\.\d+\.yaml$/.test(f))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
const gate = (base: string) =>
  runContractDiff([base, join(contractRoot, 'openapi/openapi.yaml'), '--accepted-breaks', join(contractRoot, 'ACCEPTED-BREAKS.md')]);

function lastReleaseTag(): string | undefined {
  try {
    return (
      execFileSync('git', ['describe', '--tags', '--abbrev=0', '--match', 'v*'], {
        cwd: contractRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() || undefined
    );
  } catch {
    return undefined; // no tag reachable (none yet, or a shallow clone)
  }
}

describe('the release gate', () => {
  it('has a released contract to compare with', () => {
    expect(versions.length).toBeGreaterThan(0);
  });

  it('passes: nothing breaks a client of the last released contract without a recorded decision', async () => {
    const run = await gate(join(released, versions.at(-1)!));
    expect(
      run.code,
      `${run.stdout}${run.stderr}\nRecord the decision in packages/contract/ACCEPTED-BREAKS.md (docs/contract.md#the-release-gate).`,
    ).toBe(0);
  }, 120_000);

  const tag = lastReleaseTag();
  it.runIf(tag)(
    'passes against the contract at the last release tag too',
    async () => {
      const run = await gate(`git:${tag}`);
      expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
    },
    120_000,
  );
});
