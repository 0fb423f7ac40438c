import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A private CA and a server certificate it signed, as PEM files in a temp dir. */
export interface PrivateCa {
  dir: string;
  /** The CA's certificate: what a client is told to trust (--ca-file). */
  caFile: string;
  /** The server's certificate (for localhost and 127.0.0.1) and its key, for nginx. */
  certFile: string;
  keyFile: string;
  remove(): void;
}

const openssl = (args: string[], cwd: string) =>
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
const KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const SERVER_NAMES = 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n';

/**
 * Makes a private CA and a server certificate for localhost and 127.0.0.1 with the openssl CLI, valid for
 * two days, in a temp dir.
 * @example const ca = makePrivateCa(); startNginx([...], { tls: ca }); runSuite([..., '--ca-file', ca.caFile]); ca.remove();
 */
export function makePrivateCa(): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'docproc-ca-'));
  writeFileSync(join(dir, 'server.ext'), SERVER_NAMES);
  openssl(['req', '-x509', ...KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=docproc test CA'], dir);
  openssl(['req', ...KEY, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost'], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
    ].concat(['-extfile', 'server.ext']),
    dir,
  );
  if (!readFileSync(join(dir, 'server.pem'), 'utf8').includes('BEGIN CERTIFICATE')) throw new Error('openssl made no server certificate');
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    certFile: join(dir, 'server.pem'),
    keyFile: join(dir, 'server.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
