import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import getPort from 'get-port';
import { portAccepts } from './port-accepts.js';
import { ownedTempDir, unprivilegedUser } from './postgres.js';
import { until } from './reference-server.js';

/** A real forward HTTP proxy (Debian's tinyproxy) on a free port of 127.0.0.1. */
export interface ForwardProxy {
  /** e.g. `http://127.0.0.1:41235`, for HTTP_PROXY / HTTPS_PROXY. */
  url: string;
  /** The proxy's log so far: one `Connect` line per client connection, with the CONNECT requests it tunnelled. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts tinyproxy in the foreground with its own config, log and pid file in a temp dir, as an
 * unprivileged user when the tests run as root. It takes clients from 127.0.0.1 only and tunnels CONNECT
 * to any port (no ConnectPort line), as an egress proxy for a staging network would be set up.
 * @example const proxy = await startTinyproxy(); runSuite(args, { env: { HTTP_PROXY: proxy.url } }); await proxy.stop();
 */
export async function startTinyproxy(): Promise<ForwardProxy> {
  const binary = ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy'].find((path) => existsSync(path));
  if (!binary) throw new Error('tinyproxy is not installed: install Debian\'s "tinyproxy" package (.ci/run does).');
  const user = unprivilegedUser();
  const dir = await ownedTempDir('docproc-tinyproxy-', user);
  const port = await getPort({ host: '127.0.0.1' });
  const logFile = join(dir, 'tinyproxy.log');
  const conf = join(dir, 'tinyproxy.conf');
  writeFileSync(
    conf,
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 600',
      `LogFile "${logFile}"`,
      'LogLevel Connect',
      `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      'MaxClients 200',
      'Allow 127.0.0.1',
      'DisableViaHeader Yes',
      '',
    ].join('\n'),
  );
  if (user) chownSync(conf, user.uid, user.gid);
  const child: ChildProcess = spawn(binary, ['-d', '-c', conf], {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const listening = await until(async () => child.exitCode !== null || (await portAccepts(port)), 15_000, 50);
  if (!listening || child.exitCode !== null) {
    child.kill('SIGKILL');
    throw new Error(`tinyproxy did not start listening within 15 s:\n${output}${log()}`);
  }
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
