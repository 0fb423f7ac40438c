import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import getPort from 'get-port';
import { portAccepts } from './port-accepts.js';
import { ownedTempDir, unprivilegedUser } from './postgres.js';
import { until } from './reference-server.js';

/** A real Squid forward proxy on a free port of 127.0.0.1. */
export interface SquidProxy {
  /** e.g. `http://127.0.0.1:41235`, for HTTP_PROXY / HTTPS_PROXY (no credentials in it). */
  url: string;
  /** Squid's access log so far, one line per request: `... TCP_MISS/200 512 GET http://127.0.0.1:4010/api/v1/... -`. */
  accessLog(): string;
  stop(): Promise<void>;
}

/** How the proxy is set up beyond Debian's default squid.conf. */
export interface SquidOptions {
  /** `http_access deny all` before every other rule: a proxy that refuses everyone. */
  denyAll?: boolean;
  /** Basic proxy authentication (squid's basic_ncsa_auth) with this one user, required for every request. */
  basicAuth?: { user: string; password: string };
}

const DEBIAN_CONF = '/etc/squid/squid.conf';
const NCSA_AUTH = '/usr/lib/squid/basic_ncsa_auth';

/** Where Debian (or PATH) keeps squid. */
function squidBinary(): string {
  const found = [...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'squid')), '/usr/sbin/squid'].find((p) => existsSync(p));
  if (!found || !existsSync(DEBIAN_CONF)) throw new Error('squid is not installed: install Debian\'s "squid" package (.ci/run does).');
  return found;
}

/**
 * Debian's default squid.conf, its rules as shipped (Safe_ports, `http_access deny CONNECT !SSL_ports`, only
 * localhost allowed), with its port, pid file, logs and spool moved into `dir`, and the options' rules put
 * before Debian's own `http_access` lines.
 */
function squidConfig(dir: string, port: number, options: SquidOptions, passwords: string): string {
  const shipped = readFileSync(DEBIAN_CONF, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (!shipped.includes('http_access deny CONNECT !SSL_ports'))
    throw new Error(`${DEBIAN_CONF} is not Debian's default: it lacks "http_access deny CONNECT !SSL_ports"`);
  const own = [
    ...(options.denyAll ? ['http_access deny all'] : []),
    ...(options.basicAuth
      ? [
          `auth_param basic program ${NCSA_AUTH} ${passwords}`,
          'auth_param basic realm docproc-test',
          'acl authed proxy_auth REQUIRED',
          'http_access deny !authed',
        ]
      : []),
  ];
  const first = shipped.findIndex((line) => line.startsWith('http_access'));
  const rules = [...shipped.slice(0, first), ...own, ...shipped.slice(first)]
    .filter((line) => !/^(http_port|coredump_dir|include)\b/.test(line))
    .concat([
      `http_port 127.0.0.1:${port}`,
      `pid_filename ${join(dir, 'squid.pid')}`,
      `access_log stdio:${join(dir, 'access.log')}`,
      `cache_log ${join(dir, 'cache.log')}`,
      'cache_store_log none',
      `coredump_dir ${dir}`,
      'netdb_filename none',
      'logfile_rotate 0',
      // Stop at once on SIGTERM instead of letting clients finish for 30 s.
      'shutdown_lifetime 0 seconds',
    ]);
  return `${rules.join('\n')}\n`;
}

/**
 * Starts squid in the foreground (`-N`) with Debian's default configuration in a temp dir, as an
 * unprivileged user when the tests run as root, optionally refusing everyone or wanting a password.
 * @example const proxy = await startSquid(); runSuite(args, { env: { HTTP_PROXY: proxy.url } }); await proxy.stop();
 */
export async function startSquid(options: SquidOptions = {}): Promise<SquidProxy> {
  const binary = squidBinary();
  const user = unprivilegedUser();
  const dir = await ownedTempDir('docproc-squid-', user);
  const port = await getPort({ host: '127.0.0.1' });
  const passwords = join(dir, 'passwords');
  if (options.basicAuth) {
    const hash = execFileSync('openssl', ['passwd', '-apr1', options.basicAuth.password], { encoding: 'utf8' }).trim();
    writeFileSync(passwords, `${options.basicAuth.user}:${hash}\n`);
    if (user) chownSync(passwords, user.uid, user.gid);
  }
  const conf = join(dir, 'squid.conf');
  writeFileSync(conf, squidConfig(dir, port, options, passwords));
  if (user) chownSync(conf, user.uid, user.gid);
  const child: ChildProcess = spawn(binary, ['-N', '-f', conf], {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const read = (file: string) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '');
  const listening = await until(async () => child.exitCode !== null || (await portAccepts(port)), 20_000, 50);
  if (!listening || child.exitCode !== null) {
    child.kill('SIGKILL');
    throw new Error(`squid did not start listening within 20 s:\n${output}${read('cache.log')}`);
  }
  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: () => read('access.log'),
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(late);
        }
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
