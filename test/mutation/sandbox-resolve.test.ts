import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import { describe, expect, it } from 'vitest';
import { resolve } from '../../scripts/mutation/sandbox-resolve.mjs';

const root = new URL('../../', import.meta.url);
const from = (path: string) => new URL(path, root).href;
const sandboxSource = from('packages/reference/src/core.ts');

/** Where the hook sends `specifier` imported from `parent`: what it hands on to the next resolver. */
async function resolved(specifier: string, parent: string): Promise<string> {
  const context = { conditions: ['docproc-source'], importAttributes: {}, parentURL: parent } as ResolveHookContext;
  const result = await resolve(specifier, context, async (next): Promise<ResolveFnOutput> => ({ url: next }));
  return result.url;
}

describe('the mutation sandbox resolver', () => {
  it.each([
    ['the fetch mock', 'packages/msw/src/in-process-service.ts'],
    ['a conformance scenario, the oracle scenario too', 'packages/conformance/src/scenarios/oracle.suite.ts'],
    ['the harness', 'scripts/mutation/suite-against-core.ts'],
  ])('sends the reference core imported by %s to the mutated sources', async (_who, parent) => {
    expect(await resolved('@docproc-kit/reference/core.js', from(parent))).toBe(sandboxSource);
  });

  it.each([
    ['its sources', 'packages/conformance/src/oracle/oracle.ts'],
    ['its build', 'packages/conformance/dist/oracle/oracle.js'],
    ["a sandbox's copy of it", '.stryker-tmp/sandbox-1/packages/conformance/src/oracle/nested/oracle.ts'],
  ])('lets the oracle import the unmutated reference core from %s', async (_where, parent) => {
    expect(await resolved('@docproc-kit/reference/core.js', from(parent))).toBe('@docproc-kit/reference/core.js');
  });

  it('leaves the other packages alone', async () => {
    expect(await resolved('@docproc-kit/contract/paths.js', from('packages/msw/src/fetch.ts'))).toBe('@docproc-kit/contract/paths.js');
  });
});
