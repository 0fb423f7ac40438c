import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { type PostgresCluster, startPostgres } from '@docproc-kit/test-support/postgres.js';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { until, uploadTempFiles } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Two `docproc serve --database-url` processes given one --data-dir, as replicas on one host are: the
// second starts while the first is receiving an upload whose body drips in, and must not touch it.
const KEY = 'docproc-dev-key';
let cluster: PostgresCluster;
let databaseUrl: string;
let dataDir: string;
const running: RunningCli[] = [];

beforeAll(async () => {
  cluster = await startPostgres();
  databaseUrl = await cluster.createDatabase('shared_data_dir');
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-shared-'));
}, 60_000);
afterAll(async () => {
  await Promise.all(running.map((cli) => cli.stop('SIGKILL')));
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

// The upload's body arrives only as fast as the test sends it: no minimum rate.
const replica = async () => {
  const cli = await startCli(['serve', '--database-url', databaseUrl, '--data-dir', dataDir, '--min-upload-rate', '0'], {
    readyPath: '/openapi.json',
    timeoutMs: 60_000,
  });
  running.push(cli);
  return cli;
};

/** An upload of the text.pdf fixture to `cli` whose body is sent in two halves: the second once `rest` resolves. */
async function slowUpload(cli: RunningCli, rest: Promise<unknown>): Promise<{ status: number; body: string }> {
  const pdf = await readFile(fixturePath('text.pdf'));
  const body = Buffer.concat([
    Buffer.from('--b\r\nContent-Disposition: form-data; name="files[]"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n'),
    pdf,
    Buffer.from('\r\n--b--\r\n'),
  ]);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: cli.port,
        path: '/api/v1/documents/upload_files',
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'multipart/form-data; boundary=b', 'content-length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.subarray(0, body.length / 2));
    void rest.then(() => req.end(body.subarray(body.length / 2)));
  });
}

describe('two replicas on one --data-dir', () => {
  it('a replica started while the other receives a slow upload leaves it alone: the upload is stored and readable from both', async () => {
    const a = await replica();
    let startB: () => void = () => {};
    const bStarted = new Promise<RunningCli>((resolve) => (startB = () => void replica().then(resolve)));
    const answer = slowUpload(a, bStarted);
    // The upload is in flight: half its body sits in a's scratch folder.
    expect(await until(async () => (await uploadTempFiles(dataDir)).length === 1, 10_000)).toBe(true);
    const started = Date.now();
    startB();
    const b = await bStarted;
    console.log(`shared data dir: replica B started in ${Date.now() - started} ms while the upload to A was half sent`);
    // Each has its own scratch folder, locked by its pid.
    expect((await readdir(join(dataDir, 'tmp'))).filter((name) => name.endsWith('.lock'))).toHaveLength(2);

    const { status, body } = await answer;
    expect(status, body).toBe(202);
    const id = (JSON.parse(body) as { documents: Array<{ document_id: number }> }).documents[0]!.document_id;
    for (const cli of [a, b]) {
      const res = await fetch(`${cli.baseUrl}/api/v1/documents/get_document/${id}`, { headers: { 'x-api-key': KEY } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ document_id: id, filename: 'slow.pdf' });
    }
    expect(await uploadTempFiles(dataDir)).toEqual([]);
  }, 120_000);
});
