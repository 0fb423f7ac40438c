import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import getPort from 'get-port';
import { ownedTempDir, unprivilegedUser } from './postgres.js';

/** A real nginx balancing requests round-robin over upstream servers. */
export interface Balancer {
  baseUrl: string;
  /** With `tls`: the plain http port's base URL, which redirects every request to `baseUrl`. */
  redirectingBaseUrl?: string;
  /** nginx's error log, for failure messages. */
  errors: () => string;
  stop(): Promise<void>;
}

/** Where Debian (or PATH) keeps nginx. */
export function nginxBinary(): string {
  const found = [...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'nginx')), '/usr/sbin/nginx'].find((path) =>
    existsSync(path),
  );
  if (!found) throw new Error('nginx is not installed: install Debian\'s "nginx" package (.ci/run does).');
  return found;
}

/**
 * Starts nginx in the foreground with its own prefix, config and pid file in a temp dir (owned by an
 * unprivileged user, who runs it, when the tests run as root), on a free port of 127.0.0.1, balancing
 * round-robin over the `upstreams` (host:port): at `http`, request by request, as a team's balancer would
 * (see httpConfig); at `tcp`, connection by connection (nginx's stream module), so every byte of HTTP is
 * the replicas' own. With `tls`, it serves HTTPS with that certificate (at `tcp`, TLS is all it adds), and a
 * second port of plain http redirects (301) every request there, as a deployment's front door does. With
 * `requireHeader` (http layer), it answers 403 itself to a request without that header and value, as a
 * gateway that wants its own token does.
 * @example const lb = await startNginx(['127.0.0.1:4011', '127.0.0.1:4012']); await fetch(`${lb.baseUrl}/api/v1/...`);
 */
export async function startNginx(
  upstreams: string[],
  {
    layer = 'http',
    tls,
    requireHeader,
  }: { layer?: 'http' | 'tcp'; tls?: { certFile: string; keyFile: string }; requireHeader?: [string, string] } = {},
): Promise<Balancer> {
  const user = unprivilegedUser();
  const prefix = await ownedTempDir('docproc-nginx-', user);
  for (const dir of ['temp', 'logs']) {
    mkdirSync(join(prefix, dir));
    if (user) chownSync(join(prefix, dir), user.uid, user.gid);
  }
  const port = await getPort({ host: '127.0.0.1' });
  const redirectPort = tls ? await getPort({ host: '127.0.0.1' }) : undefined;
  // nginx's user reads the certificate and key: copies in its own dir.
  if (tls) {
    copyFileSync(tls.certFile, join(prefix, 'server.pem'));
    copyFileSync(tls.keyFile, join(prefix, 'server.key'));
    for (const file of ['server.pem', 'server.key']) if (user) chownSync(join(prefix, file), user.uid, user.gid);
  }
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    layer === 'http' ? httpConfig(prefix, port, upstreams, redirectPort, requireHeader) : tcpConfig(prefix, port, upstreams, redirectPort),
  );
  if (user) chownSync(conf, user.uid, user.gid);
  const child: ChildProcess = spawn(nginxBinary(), ['-p', prefix, '-c', conf, '-e', join(prefix, 'logs', 'error.log')], {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited during start-up:\n${output}`);
    // Ready once it accepts connections (at tcp, a request needs a live upstream).
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (accepted) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not answer within 15 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let stopping: Promise<void> | undefined;
  return {
    baseUrl,
    ...(redirectPort ? { redirectingBaseUrl: `http://127.0.0.1:${redirectPort}` } : {}),
    errors: () => output,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          // SIGQUIT: nginx's graceful stop; its worker goes with it.
          child.kill('SIGQUIT');
          await exited;
        }
        await rm(prefix, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

const common = (prefix: string) => `worker_processes 1;
daemon off;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 1024; }
`;
const servers = (upstreams: string[]) => upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n');

// Connections take turns. Debian builds the stream module as a module of its own (libnginx-mod-stream).
// With a `redirectPort`, TLS ends here and an http server on that port redirects to it.
function tcpConfig(prefix: string, port: number, upstreams: string[], redirectPort?: number): string {
  const built = spawnSync(nginxBinary(), ['-V'], { encoding: 'utf8' });
  const flags = `${built.stdout}${built.stderr}`;
  const modules = /--modules-path=(\S+)/.exec(flags)?.[1] ?? '/usr/lib/nginx/modules';
  const load = /--with-stream=dynamic/.test(flags) ? `load_module ${join(modules, 'ngx_stream_module.so')};\n` : '';
  return `${load}${common(prefix)}stream {
  upstream replicas {
${servers(upstreams)}
  }
  server {
    listen 127.0.0.1:${port}${redirectPort ? ' ssl' : ''};
${redirectPort ? tlsLines(prefix) : ''}    proxy_pass replicas;
    proxy_connect_timeout 2s;
  }
}
${
  redirectPort
    ? `http {
  access_log off;
${tempPaths(prefix)}${redirectServer(redirectPort, port)}}
`
    : ''
}`;
}

const tlsLines = (prefix: string) => `    ssl_certificate ${join(prefix, 'server.pem')};
    ssl_certificate_key ${join(prefix, 'server.key')};
`;
const redirectServer = (from: number, to: number) => `  server {
    listen 127.0.0.1:${from};
    return 301 https://127.0.0.1:${to}$request_uri;
  }
`;
function tempPaths(prefix: string): string {
  const temp = join(prefix, 'temp');
  return `  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
`;
}

// Requests take turns: the shipped deploy/nginx.conf (read there why it is as it is), with this test's
// upstreams and port put in, inside an http block of the test's own (its temp paths, no access log).
// With a `redirectPort`, the balancer speaks TLS and that port redirects plain http to it; with
// `requireHeader`, it refuses (403) a request without that header, as a gateway in front would.
function httpConfig(prefix: string, port: number, upstreams: string[], redirectPort?: number, requireHeader?: [string, string]): string {
  let config = shippedConfig(port, upstreams);
  if (redirectPort) {
    config = config.replace(`listen 127.0.0.1:${port};\n`, `listen 127.0.0.1:${port} ssl;\n${tlsLines(prefix)}`);
    config = `${redirectServer(redirectPort, port)}${config}`;
  }
  if (requireHeader)
    config = config.replace(
      /^( *)location \/ \{\n/m,
      (line, indent: string) =>
        `${line}${indent}    if ($http_${requireHeader[0].toLowerCase().replace(/-/g, '_')} != "${requireHeader[1]}") { return 403; }\n`,
    );
  return `${common(prefix)}http {
  access_log off;
${tempPaths(prefix)}${config}
}
`;
}

/** The shipped deploy/nginx.conf with these upstreams and this port of 127.0.0.1; throws when it no longer has what it replaces. */
export function shippedConfig(port: number, upstreams: string[]): string {
  const shipped = readFileSync(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
  const servers = /^( *)server 127\.0\.0\.1:\d+ (.*);\n(?:\1server 127\.0\.0\.1:\d+ .*;\n)*/m.exec(shipped);
  const listen = /^( *)listen 8080;$/m.exec(shipped);
  if (!servers || !listen)
    throw new Error('deploy/nginx.conf no longer has the upstream servers and the "listen 8080;" this test puts its own in');
  const [, indent, options] = servers;
  return shipped
    .replace(servers[0], upstreams.map((u) => `${indent}server ${u} ${options};\n`).join(''))
    .replace(listen[0], `${listen[1]}listen 127.0.0.1:${port};`);
}
