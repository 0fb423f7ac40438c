import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { docprocArgs, type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// `docproc serve` as a process, as an installed kit runs it (bin/docproc.js on dist/): options, banner,
// signals, restarts. The banner test starts it the way `npm start` does, through tsx.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const DEV_KEY = 'docproc-dev-key';
let dataDir: string;
const running: RunningCli[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-serve-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const serve = async (args: string[], env: NodeJS.ProcessEnv = {}, entry: 'src' | 'dist' = 'dist') => {
  const cli = await startCli(['serve', '--log-level', 'silent', ...args], { readyPath: '/openapi.json', env, entry });
  running.push(cli);
  return cli;
};

/** Resolves with the exit code once the process has exited by itself (no further signal). */
function exited(cli: RunningCli): Promise<number | null> {
  if (cli.child.exitCode !== null) return Promise.resolve(cli.child.exitCode);
  return new Promise((resolve) => cli.child.once('exit', (code) => resolve(code)));
}

/** Runs `docproc serve ...` to completion (for options that make it exit). */
function serveSync(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, docprocArgs(['serve', ...args]), {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, ...env },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function uploadPdf(baseUrl: string, key = DEV_KEY) {
  const body = new FormData();
  body.append('files[]', new Blob([await readFile(fixturePath('text.pdf'))]), 'text.pdf');
  const res = await fetch(`${baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': key }, body });
  return { status: res.status, body: await res.json() };
}

describe('docproc serve --help', () => {
  it('lists every option with its environment variable', () => {
    const { status, output: wrapped } = serveSync(['--help']);
    expect(status).toBe(0);
    const output = wrapped.replace(/\s+/g, ' ');
    for (const [option, env] of [
      ['--port', 'PORT'],
      ['--host', 'DOCPROC_HOST'],
      ['--data-dir', 'DOCPROC_DATA_DIR'],
      ['--api-key', 'DOCPROC_API_KEYS'],
      ['--processing-delay-ms', 'DOCPROC_PROCESSING_DELAY_MS'],
      ['--failure-rate', 'DOCPROC_FAILURE_RATE'],
      ['--seed', 'DOCPROC_SEED'],
      ['--max-file-bytes', 'DOCPROC_MAX_FILE_BYTES'],
      ['--max-files', 'DOCPROC_MAX_FILES'],
      ['--concurrency', 'DOCPROC_CONCURRENCY'],
      ['--extraction-memory-mb', 'DOCPROC_EXTRACTION_MEMORY_MB'],
      ['--min-upload-rate', 'DOCPROC_MIN_UPLOAD_RATE'],
      ['--max-connections', 'DOCPROC_MAX_CONNECTIONS'],
      ['--max-connections-per-address', 'DOCPROC_MAX_CONNECTIONS_PER_ADDRESS'],
      ['--journal-size', 'DOCPROC_JOURNAL_SIZE'],
      ['--metrics-port', 'DOCPROC_METRICS_PORT'],
      ['--headers-timeout-ms', 'DOCPROC_HEADERS_TIMEOUT_MS'],
      ['--request-timeout-ms', 'DOCPROC_REQUEST_TIMEOUT_MS'],
      ['--shutdown-grace-ms', 'DOCPROC_SHUTDOWN_GRACE_MS'],
      ['--cors-origin', 'DOCPROC_CORS_ORIGINS'],
      ['--log-level', 'DOCPROC_LOG_LEVEL'],
    ]) {
      expect(output).toContain(option);
      expect(output).toContain(env);
    }
    expect(output).toContain('(default: 4010, env: PORT)');
    expect(output).toContain('(default: "./.docproc", env: DOCPROC_DATA_DIR)');
    expect(output).toContain('(default: 1500, env: DOCPROC_PROCESSING_DELAY_MS)');
    expect(output).toContain('(default: 512, env: DOCPROC_EXTRACTION_MEMORY_MB)');
  });

  it.each([
    [['--failure-rate', '2'], /--failure-rate/],
    [['--processing-delay-ms', '-5'], /--processing-delay-ms/],
    [['--log-level', 'loud'], /--log-level/],
    [['--extraction-memory-mb', '100'], /--extraction-memory-mb.*from 256/],
  ])('refuses %j with a message naming the option', (args, message) => {
    const { status, output } = serveSync(args);
    expect(status).not.toBe(0);
    expect(output).toMatch(message);
  });
});

describe('docproc serve on a data dir that lost a file', () => {
  it.each([
    ['records/0.json', 'records/0.json'],
    ['db.json', 'db.json'],
  ])(
    'without %s exits 1 naming it, and keeps every upload',
    async (lost) => {
      const dir = join(dataDir, `lost-${lost.replace('/', '-')}`);
      const cli = await serve(['--data-dir', dir]);
      expect((await uploadPdf(cli.baseUrl)).status).toBe(202);
      expect(await cli.stop('SIGTERM')).toBe(0);
      await rm(join(dir, lost));
      const { status, output } = serveSync(['--data-dir', dir, '--port', '0', '--log-level', 'silent']);
      expect(status).toBe(1);
      expect(output).toContain(join(dir, lost));
      expect(output).toContain('missing');
      expect(await readdir(join(dir, 'files'))).toEqual(['1']);
    },
    60_000,
  );
});

describe('docproc serve with a key setting that holds no key', () => {
  it.each([
    ['DOCPROC_API_KEYS=""', [], { DOCPROC_API_KEYS: '' }, /DOCPROC_API_KEYS is set but holds no key/],
    ['DOCPROC_API_KEYS=","', [], { DOCPROC_API_KEYS: ',' }, /DOCPROC_API_KEYS is set but holds no key/],
    ['DOCPROC_API_KEYS=" , "', [], { DOCPROC_API_KEYS: ' , ' }, /DOCPROC_API_KEYS is set but holds no key/],
    ['--api-key ""', ['--api-key', ''], {}, /--api-key was given an empty key/],
  ])(
    '%s stops start-up with exit 2 and says why, instead of accepting the public dev key',
    (_what, args, env, message) => {
      const { status, output } = serveSync(['--data-dir', join(dataDir, 'empty-keys'), '--port', '0', ...args], env);
      expect(status).toBe(2);
      expect(output).toMatch(message);
      expect(output).not.toContain('listening');
    },
    30_000,
  );
});

describe('docproc serve with a key that no HTTP client can send intact', () => {
  it.each([
    ['--api-key Kü', ['--api-key', 'Kü'], {}, /--api-key has a key whose character 2 is U\+00FC/],
    ['--api-key with a bell', ['--api-key', 'ok-key', '--api-key', 'bad\u0007key'], {}, /--api-key has a key whose character 4 is U\+0007/],
    ['--api-key with a space', ['--api-key', 'two words'], {}, /character 4 is U\+0020/],
    [
      'DOCPROC_API_KEYS with a tab inside',
      [],
      { DOCPROC_API_KEYS: 'fine, tab\tbed' },
      /DOCPROC_API_KEYS has a key whose character 4 is U\+0009/,
    ],
  ])(
    '%s stops start-up with exit 2, naming the rule but not the key',
    (_what, args, env, message) => {
      const { status, output } = serveSync(['--data-dir', join(dataDir, 'bad-keys'), '--port', '0', ...args], env);
      expect(status).toBe(2);
      expect(output).toMatch(message);
      expect(output).toContain('printable ASCII without spaces (0x21-0x7E');
      for (const key of ['Kü', 'bad\u0007key', 'two words', 'tab\tbed']) expect(output).not.toContain(key);
      expect(output).not.toContain('listening');
    },
    30_000,
  );
});

describe('a running docproc serve', () => {
  it('started as `npm start` starts it (src/cli.ts through tsx), prints its base URL, key, data dir and API reference, and answers with the dev key', async () => {
    const cli = await serve(['--data-dir', join(dataDir, 'banner')], {}, 'src');
    const banner = cli.output();
    expect(banner).toContain(`${cli.baseUrl}/api/v1`);
    expect(banner).toContain(DEV_KEY);
    expect(banner).toContain(join(dataDir, 'banner'));
    expect(banner).toContain(`${cli.baseUrl}/docs`);
    const res = await fetch(`${cli.baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': DEV_KEY } });
    expect(res.status).toBe(200);
  }, 60_000);

  it('with DOCPROC_API_KEYS accepts those keys only, and never prints them', async () => {
    const cli = await serve(['--data-dir', join(dataDir, 'keys')], { DOCPROC_API_KEYS: 'team-a-secret, team-b-secret' });
    const list = (key: string) =>
      fetch(`${cli.baseUrl}/api/v1/documents/get_documents`, { headers: { 'x-api-key': key } }).then((r) => r.status);
    expect([await list('team-a-secret'), await list('team-b-secret'), await list(DEV_KEY)]).toEqual([200, 200, 401]);
    expect(cli.output()).not.toContain('team-a-secret');
    expect(cli.output()).toContain('2 configured keys');
  }, 60_000);

  it('on SIGTERM (even sent twice) finishes the upload in flight, then exits 0; a restart picks up the documents left processing', async () => {
    const dir = join(dataDir, 'graceful');
    const first = await serve(['--data-dir', dir, '--processing-delay-ms', '600000']);
    // An upload whose body is still arriving when the signal comes.
    const pdf = await readFile(fixturePath('text.pdf'));
    const head = Buffer.from('--b\r\nContent-Disposition: form-data; name="files[]"; filename="in-flight.pdf"\r\n\r\n');
    const tail = Buffer.from('\r\n--b--\r\n');
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${first.baseUrl}/api/v1/documents/upload_files`, {
        method: 'POST',
        headers: {
          'x-api-key': DEV_KEY,
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': head.length + pdf.length + tail.length,
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write(head);
      req.write(pdf.subarray(0, 100));
      setTimeout(() => {
        // Twice, as under `npm start`, where npm forwards the terminal's signal to the server too.
        first.child.kill('SIGTERM');
        first.child.kill('SIGINT');
        setTimeout(() => req.end(Buffer.concat([pdf.subarray(100), tail])), 300);
      }, 300);
    });
    const { status, body } = await answered;
    expect(status).toBe(202);
    const id = JSON.parse(body).documents[0].document_id as number;
    expect(await exited(first)).toBe(0);

    const second = await serve(['--data-dir', dir, '--processing-delay-ms', '50']);
    expect(second.output()).toContain('resumed        1 document(s)');
    let doc: { status: string; content?: string } = { status: 'processing' };
    for (let i = 0; i < 200 && doc.status === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      doc = await (await fetch(`${second.baseUrl}/api/v1/documents/get_document/${id}`, { headers: { 'x-api-key': DEV_KEY } })).json();
    }
    expect(doc).toMatchObject({ status: 'completed', content: expect.stringContaining('PELICAN') });
    expect(await second.stop('SIGINT')).toBe(0);
  }, 90_000);

  it('refuses to start on a damaged db file, naming it, and leaves it as it was', async () => {
    const dir = join(dataDir, 'damaged');
    const cli = await serve(['--data-dir', dir]);
    expect((await uploadPdf(cli.baseUrl)).status).toBe(202);
    expect(await cli.stop()).toBe(0);
    await writeFile(join(dir, 'db.json'), '{"format": "docproc-store/1", "documents": [');
    const { status, output } = serveSync(['--data-dir', dir, '--port', '0']);
    expect(status).toBe(1);
    expect(output).toContain(join(dir, 'db.json'));
    expect(await readFile(join(dir, 'db.json'), 'utf8')).toBe('{"format": "docproc-store/1", "documents": [');
  }, 60_000);
});
