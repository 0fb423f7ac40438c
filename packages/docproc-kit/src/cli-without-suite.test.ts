import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { startCli } from '@docproc-kit/test-support/processes.js';
import { describe, expect, it } from 'vitest';

// A sandbox operator installs the kit to run the reference server: `docproc serve` must not need the
// conformance suite. Here the suite cannot be resolved at all (a resolve hook refuses it, as if the package
// were absent), and the server still starts, stores an upload and lists it.
const hook = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@docproc-kit/conformance')) throw new Error('@docproc-kit/conformance is not installed');
  return next(specifier, context);
}`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const withoutSuite = `--import=data:text/javascript,${encodeURIComponent(register)}`;

describe('docproc serve without the conformance package', () => {
  it('starts, takes an upload and lists it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'docproc-no-suite-'));
    const server = await startCli(['serve', '--data-dir', dataDir], {
      readyPath: '/healthz',
      env: { NODE_OPTIONS: withoutSuite },
      timeoutMs: 40_000,
    });
    try {
      const form = new FormData();
      form.append('files[]', new Blob([readFileSync(fixturePath('text.pdf'))], { type: 'application/pdf' }), 'text.pdf');
      const headers = { 'x-api-key': 'docproc-dev-key' };
      const upload = await fetch(`${server.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', body: form, headers });
      expect(upload.status, server.output()).toBe(202);
      const list = await fetch(`${server.baseUrl}/api/v1/documents/get_documents`, { headers });
      expect(((await list.json()) as { pagination: { total: number } }).pagination.total).toBe(1);
      expect(server.output()).not.toContain('is not installed');
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
