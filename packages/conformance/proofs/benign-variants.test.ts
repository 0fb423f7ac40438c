import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { type ProxyRequest, startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { afterAll, describe, expect, it } from 'vitest';
import { MULTIPART_FORMS } from '../src/inputs/multipart-forms.js';
import { buildMultipart } from '../src/transport/multipart.js';
import { benignVariants, keepQuotedPairs, readIntegersLeniently, refuseLenientMultipart, wireVariations } from './benign-variants.js';
import { createRunnerPool } from './runner-pool.js';

// The other half of proving the suite: servers that differ from ours only where the contract allows
// must pass with zero failures. Each variant gets its own real reference server.
const KEYS = ['benign-primary-key', 'benign-second-key'];
const MAX_FILE_BYTES = 65_536;
const pool = createRunnerPool(2);
afterAll(() => pool.close());

/** One raw HTTP exchange, with the header names exactly as they came over the wire. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the wire variations are really on the wire', () => {
  it('upper-case header names, Connection: close, chunked, gzip, charset, extra headers, reordered keys, offset timestamps', async () => {
    const server = await startReferenceServer({ apiKeys: KEYS });
    const proxy = await startMutationProxy(server.baseUrl, wireVariations);
    try {
      const form = new FormData();
      form.append('files[]', new Blob(['%PDF-1.7\n%%EOF\n']), 'a.pdf');
      await fetch(`${server.baseUrl}/api/v1/documents/upload_files`, { method: 'POST', headers: { 'x-api-key': KEYS[0]! }, body: form });
      const { rawHeaders, body } = await rawGet(`${proxy.baseUrl}/api/v1/documents/get_documents`, {
        'x-api-key': KEYS[0]!,
        'accept-encoding': 'gzip',
      });
      const header = (name: string) => rawHeaders[rawHeaders.indexOf(name) + 1];
      expect(rawHeaders).toContain('X-REQUEST-ID');
      expect(header('CONNECTION')).toBe('close');
      expect(header('Transfer-Encoding')).toBe('chunked');
      expect(header('CONTENT-ENCODING')).toBe('gzip');
      expect(header('CONTENT-TYPE')).toBe('application/json; charset=utf-8');
      expect(header('X-POWERED-BY')).toBeDefined();
      const list = JSON.parse(gunzipSync(body).toString()) as { documents: Array<Record<string, string>> };
      expect(Object.keys(list)).toEqual(['pagination', 'documents']);
      expect(list.documents[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+02:00$/);
      const bodyless = await fetch(`${proxy.baseUrl}/api/v1/documents/upload_files`, {
        method: 'POST',
        headers: { 'x-api-key': KEYS[0]! },
      });
      expect(((await bodyless.json()) as { errors: unknown }).errors).toEqual([
        { in: 'header', name: 'content-type', message: 'must be multipart/form-data' },
      ]);
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 60_000);
});

describe('the lenient integer reading is really made', () => {
  const get = (url: string) => readIntegersLeniently({ method: 'GET', url, headers: {}, body: Buffer.alloc(0) }).url;
  it.each([
    ['/api/v1/documents/get_documents?page=010&limit=%2B5', '/api/v1/documents/get_documents?page=10&limit=5'],
    ['/api/v1/documents/get_document/%2B42', '/api/v1/documents/get_document/42'],
    ['/api/v1/documents/retry_documents/042', '/api/v1/documents/retry_documents/42'],
    ['/api/v1/documents/get_documents?page=1e1', '/api/v1/documents/get_documents?page=1e1'],
    ['/api/v1/documents/get_document/%20042', '/api/v1/documents/get_document/%20042'],
  ])('%s reaches the server as %s', (sent, seen) => expect(get(sent)).toBe(seen));
});

describe('the quoted-pairs are really kept', () => {
  it('shows a quoted filename as sent in its 202 and in every answer after, and leaves other names alone', async () => {
    const variant = keepQuotedPairs();
    const { body, contentType } = buildMultipart([{ field: 'files[]', quotedFilename: 'say \\"hi\\".pdf', data: new Uint8Array(1) }]);
    const upload = {
      method: 'POST',
      url: '/api/v1/documents/upload_files',
      headers: { 'content-type': contentType },
      body: Buffer.from(body),
    };
    const answer = (status: number, value: unknown) => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(value)),
    });
    const filenames = async (response: ReturnType<typeof answer>, request: ProxyRequest = upload) =>
      JSON.parse((await variant.response!(response, request)).body.toString()).documents.map((d: { filename: string }) => d.filename);
    const read = { document_id: 1, filename: 'say "hi".pdf' };
    const other = { document_id: 2, filename: 'plain.pdf' };
    expect(await filenames(answer(202, { documents: [read] }))).toEqual(['say \\"hi\\".pdf']);
    const list: ProxyRequest = { method: 'GET', url: '/api/v1/documents/get_documents', headers: {}, body: Buffer.alloc(0) };
    expect(await filenames(answer(200, { documents: [read, other] }), list)).toEqual(['say \\"hi\\".pdf', 'plain.pdf']);
  });
});

describe('the suite passes servers that differ only where the contract allows', { concurrent: true }, () => {
  it.each(benignVariants)(
    '$name ($difference): passes with zero failures',
    async (variant) => {
      const server = await startReferenceServer({
        apiKeys: KEYS,
        maxFiles: 20,
        maxFileBytes: MAX_FILE_BYTES,
        processingDelayMs: 200,
        ...variant.server,
      });
      const proxy = variant.mutation ? await startMutationProxy(server.baseUrl, variant.mutation) : undefined;
      try {
        const run = await pool.run({
          baseUrl: proxy?.baseUrl ?? server.baseUrl,
          apiKey: KEYS[0]!,
          secondApiKey: KEYS[1]!,
          maxFiles: 20,
          maxFileBytes: MAX_FILE_BYTES,
          ...variant.options,
        });
        const failed = run.report?.checks.filter((c) => c.outcome === 'failed').map((c) => c.id);
        // The failed checks lead the message: CI keeps only a failure's first lines.
        expect(failed, `${failed?.join(', ')}\n${run.output}`).toEqual([]);
        expect(run.report!.unattributed, run.output).toEqual([]);
        const unexercised = run.report!.checks.filter((c) => c.outcome === 'not-exercised');
        expect(unexercised.map((c) => c.id).sort(), run.output).toEqual(variant.notExercised ?? []);
        for (const check of unexercised) expect(check.notExercised.join(' '), check.id).toMatch(/--max-files is \d+/);
        expect(run.report!.summary.passed, run.output).toBeGreaterThan(0);
        expect(run.code, run.output).toBe(0);
      } finally {
        await proxy?.close();
        await server.close();
      }
    },
    600_000,
  );
});

describe('the strict multipart reading is really made', () => {
  const variant = refuseLenientMultipart();
  const statusOf = async (body: Uint8Array, contentType: string) => {
    const upload = {
      method: 'POST',
      url: '/api/v1/documents/upload_files',
      headers: { 'content-type': contentType },
      body: Buffer.from(body),
    };
    return (await variant.respond!(upload, async () => ({ status: 202, headers: {}, body: Buffer.alloc(0) }))).status;
  };
  const file = { field: 'files[]', filename: 'a.pdf', data: new TextEncoder().encode('%PDF-1.7\n%%EOF\n') };
  it.each(MULTIPART_FORMS.map((f) => [f.id, f.reading === 'either' ? 400 : 202, f] as const))(
    'answers "%s" with a %i (400: its own refusal, 202: the server behind it)',
    async (_, status, form) => {
      const { body, contentType } = form.write(file);
      expect(await statusOf(body, contentType)).toBe(status);
    },
  );

  it('passes a body as a browser writes it to the server', async () => {
    const { body, contentType } = buildMultipart([{ ...file, contentType: 'application/pdf' }]);
    expect(await statusOf(body, contentType)).toBe(202);
  });
});
