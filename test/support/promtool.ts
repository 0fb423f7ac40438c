import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `promtool check metrics` says of a Prometheus exposition: '' when it passes, else its complaints.
 * Throws when promtool is not installed, naming the package that has it.
 * @example expect(promtoolCheck(await (await fetch(`${url}/metrics`)).text())).toBe('');
 */
export function promtoolCheck(exposition: string): string {
  const binary = [...(process.env.PATH ?? '').split(':'), '/usr/bin'].map((dir) => join(dir, 'promtool')).find((path) => existsSync(path));
  if (!binary) throw new Error('promtool is not installed: install Debian\'s "prometheus" package (.ci/run does).');
  const run = spawnSync(binary, ['check', 'metrics'], { input: exposition, encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 ? '' : `${run.stdout}${run.stderr}`.trim() || `promtool exited ${run.status}`;
}
