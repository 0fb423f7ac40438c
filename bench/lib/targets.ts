import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { prismBinPath } from './prism-bin.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A server process under measurement. */
export interface Target {
  name: string;
  baseUrl: string;
  pid: number;
  /** Milliseconds from spawn to the first answer on the ready path. */
  startupMs: number;
  /** Peak resident memory so far (VmHWM), in MiB. */
  peakRssMiB: () => Promise<number>;
  /** Current resident memory (VmRSS), in MiB. */
  rssMiB: () => Promise<number>;
  stop: () => Promise<void>;
}

async function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/**
 * Spawns `node <args>` (with `--port N` appended) and waits until `readyPath` answers with
 * `readyStatus`, timing the start-up.
 * @example await spawnTarget('prism', [prismBin, 'mock', spec], { readyPath: '/api/v1/documents/get_documents', readyStatus: 401 })
 */
export async function spawnTarget(
  name: string,
  args: string[],
  {
    readyPath,
    readyStatus,
    env = {},
    headers = {},
    nodeArgs = [],
  }: { readyPath: string; readyStatus: number; env?: NodeJS.ProcessEnv; headers?: Record<string, string>; nodeArgs?: string[] },
): Promise<Target> {
  const port = await getPort({ host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...args, '--port', String(port)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start-up:\n${stderr}`);
    const status = await fetch(baseUrl + readyPath, { headers }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === readyStatus) break;
    if (performance.now() - started > 60_000) throw new Error(`${name} not ready after 60 s:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startupMs = Math.round(performance.now() - started);
  const pid = child.pid!;
  return {
    name,
    baseUrl,
    pid,
    startupMs,
    peakRssMiB: () => procStatus(pid, 'VmHWM'),
    rssMiB: () => procStatus(pid, 'VmRSS'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** `prism mock` on the bundled contract, logging silenced, run in-process (no docproc wrapper). */
export function startPrism(
  spec = fileURLToPath(new URL('../../packages/contract/openapi/openapi.yaml', import.meta.url)),
): Promise<Target> {
  return spawnTarget('prism mock', [prismBinPath(), 'mock', '--host', '127.0.0.1', '--verboseLevel', 'silent', spec], {
    readyPath: '/api/v1/documents/get_documents',
    readyStatus: 401,
  });
}

/** The bare Express 5 app of bench/minimal-express.js. */
export function startMinimalExpress(): Promise<Target> {
  return spawnTarget('minimal express', [fileURLToPath(new URL('../minimal-express.js', import.meta.url))], {
    readyPath: '/api/v1/documents/get_documents',
    readyStatus: 200,
    headers: KEY_HEADERS,
  });
}

/** Key headers for our server (the dev key) and for Prism (any key). */
export const KEY_HEADERS = { 'x-api-key': 'docproc-dev-key' };

/** The compiled CLI of a checkout: packages/docproc-kit/bin/ since the packages layout, bin/ before it (a baseline). */
export function docprocBin(checkout: string): string {
  const packaged = join(checkout, 'packages/docproc-kit/bin/docproc.js');
  return existsSync(packaged) ? packaged : join(checkout, 'bin/docproc.js');
}

/**
 * The reference server as an installed user runs it (`node bin/docproc.js serve`, the compiled
 * code), with request logging on at its default level (JSON, to a discarded stdout): the cost of
 * logging is part of what is measured. `checkout` runs another checkout's build instead (a baseline).
 */
export function startReference(dataDir: string, extra: string[] = [], nodeArgs: string[] = [], checkout = root): Promise<Target> {
  return spawnTarget(
    checkout === root ? 'docproc serve' : `docproc serve (${checkout})`,
    [docprocBin(checkout), 'serve', '--data-dir', dataDir, '--log-format', 'json', ...extra],
    { readyPath: '/api/v1/documents/get_documents', readyStatus: 200, headers: KEY_HEADERS, nodeArgs },
  );
}

/** Starts targets one after another (they would compete for the CPU); stops the started ones if one fails. */
export async function startAll<const T extends Array<() => Promise<Target>>>(starters: T): Promise<{ [K in keyof T]: Target }> {
  const started: Target[] = [];
  try {
    for (const start of starters) started.push(await start());
  } catch (error) {
    await Promise.all(started.map((t) => t.stop()));
    throw error;
  }
  return started as { [K in keyof T]: Target };
}
