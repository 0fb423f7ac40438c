import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { docprocArgs } from '@docproc-kit/test-support/processes.js';
import { describe, expect, it } from 'vitest';

// The real CLI process, as a person types it: a bad option value is one line on stderr and exit 2.
const root = fileURLToPath(new URL('../../../', import.meta.url));

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      docprocArgs(args),
      { cwd: root, env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

const cases = ['serve', 'mock'].flatMap((command) => [
  { command, how: '--port abc', args: [command, '--port', 'abc'], env: {}, shown: "'abc'" },
  { command, how: '--port 70000', args: [command, '--port', '70000'], env: {}, shown: "'70000'" },
  { command, how: '--port 4.5', args: [command, '--port', '4.5'], env: {}, shown: "'4.5'" },
  { command, how: 'PORT=abc', args: [command], env: { PORT: 'abc' }, shown: "'abc'" },
]);

describe('docproc usage errors', () => {
  it.each(cases)(
    'docproc $command with $how: one line on stderr, exit 2, nothing started',
    async ({ args, env, shown }) => {
      const { code, stdout, stderr } = await run(args, env);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain('port');
      expect(stderr).toContain(shown);
      expect(stderr).not.toMatch(/\bat .+:\d+:\d+/);
    },
    40_000,
  );
});
