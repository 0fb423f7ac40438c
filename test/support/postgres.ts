import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import pg from 'pg';

/** The user a server runs as when the tests run as root (PostgreSQL refuses root; nginx's files must not be root's). */
export interface Unprivileged {
  uid: number;
  gid: number;
}

/**
 * Who a server the tests start should run as: nobody when the tests run as root (as CI may), else the
 * current user (undefined: no switch).
 */
export function unprivilegedUser(): Unprivileged | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'));
  if (!line) throw new Error('running as root, and there is no user "nobody" to run the test servers as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Makes a temp dir the servers' user owns. */
export async function ownedTempDir(prefix: string, user = unprivilegedUser()): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Where Debian (or PATH) keeps PostgreSQL's server programs: the newest version of 15 or later. */
function postgresBinDir(): string {
  const onPath = (process.env.PATH ?? '')
    .split(':')
    .find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((v) => v >= 15)
        .sort((a, b) => b - a)
    : [];
  for (const version of versions) {
    const dir = join(root, String(version), 'bin');
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  throw new Error(
    'PostgreSQL 15+ server programs (initdb, postgres) are not installed: install Debian\'s "postgresql" package (.ci/run does).',
  );
}

/** A throwaway PostgreSQL cluster of the tests, on 127.0.0.1. */
export interface PostgresCluster {
  /** The superuser's URL of database `postgres`; see {@link PostgresCluster.createDatabase}. */
  url: string;
  port: number;
  /** Creates an empty database and resolves to its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast: connections are cut), keeping its files; {@link PostgresCluster.start} brings it back. */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its files. Idempotent. */
  stop(): Promise<void>;
}

let databases = 0;

/**
 * Starts a throwaway PostgreSQL cluster: initdb in a temp dir, the server on a free port of 127.0.0.1
 * with its socket in that dir, as an unprivileged user when the tests run as root. Durability is off
 * (fsync), as the data is thrown away.
 * @example const cluster = await startPostgres(); const url = await cluster.createDatabase(); await cluster.stop();
 */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const user = unprivilegedUser();
  const dir = await ownedTempDir('docproc-pg-', user);
  const data = join(dir, 'data');
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'docproc', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], {
    ...asUser,
    stdio: 'pipe',
    timeout: 60_000,
  });
  const port = await getPort({ host: '127.0.0.1' });
  const url = `postgres://docproc@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;
  let output = '';

  const start = async () => {
    output = '';
    server = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      { ...asUser, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`postgres exited during start-up:\n${output}`);
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => {});
        if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 30 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const halt = async () => {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // SIGINT: PostgreSQL's fast shutdown (connections are cut, the files stay whole).
    running.kill('SIGINT');
    await exited;
  };

  try {
    await start();
  } catch (error) {
    await halt();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    async createDatabase(name = `t${process.pid}_${++databases}`) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://docproc@127.0.0.1:${port}/${name}`;
    },
    halt,
    start,
    stop() {
      stopping ??= (async () => {
        await halt();
        await rm(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
