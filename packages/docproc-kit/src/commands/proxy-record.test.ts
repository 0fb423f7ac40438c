import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocprocClient } from '@docproc-kit/client';
import { contractMutants } from '@docproc-kit/conformance/proofs/mutants-contract.js';
import { fixturePath } from '@docproc-kit/contract/fixtures.js';
import { createDocprocFetch, createDocprocHandlers, type SeedFileBody } from '@docproc-kit/msw';
import { startMutationProxy } from '@docproc-kit/test-support/mutation-proxy.js';
import { docprocArgs, type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { type RunningReferenceServer, startReferenceServer } from '@docproc-kit/test-support/reference-server.js';
import { idOf, retryToEnd, type SeedView, seedViews } from '@docproc-kit/test-support/seed-views.js';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `docproc proxy --record` as a real process in front of the reference server, driven by the typed client:
// the recording starts a fresh sandbox (`docproc serve --seed-file`) and MSW handlers that answer what the
// real service answered, and go on behaving as the contract says.
const KEY = 'docproc-dev-key';
// Two completed by their text layer, one by OCR, two that fail (one of them retried and failing again).
const FIXTURES = ['text.pdf', 'multipage.pdf', 'scanned.png', 'corrupt.pdf', 'truncated.png'];

let server: RunningReferenceServer;
let dir: string;
const running: RunningCli[] = [];

beforeAll(async () => {
  server = await startReferenceServer({ processingDelayMs: 20 });
  dir = await mkdtemp(join(tmpdir(), 'docproc-proxy-record-'));
}, 60_000);
afterAll(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop('SIGKILL')));
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const client = (baseUrl: string, fetch?: typeof globalThis.fetch) =>
  createDocprocClient({ baseUrl, apiKey: KEY, ...(fetch ? { fetch } : {}) });
const start = async (args: string[], readyPath: string) => {
  const cli = await startCli(args, { readyPath });
  running.push(cli);
  return cli;
};

// The real service's documents as the client sees them, with the recording made of that traffic.
let truth: { lists: SeedView[][]; reads: SeedView[] };
let recording: unknown;
let recordedText: string;

describe('docproc proxy --record', () => {
  it('records every document the valid answers showed, the latest view of each winning, into a seed file at a flush and at exit', async () => {
    const file = join(dir, 'recording.json');
    const proxy = await start(['proxy', '--target', server.baseUrl, '--record', file], '/_proxy/report');
    const through = client(proxy.baseUrl);
    const files = await Promise.all(FIXTURES.map(async (name) => ({ name, data: await readFile(fixturePath(name)) })));
    const uploaded = await through.uploadDocuments(files);
    expect(uploaded.response.status).toBe(202);
    expect(
      (await through.uploadDocuments([{ name: 'text-named.png', data: await readFile(fixturePath('text-named.png')) }])).response.status,
    ).toBe(415);
    for (const doc of uploaded.data!.documents)
      await through.waitForDocument(doc.document_id, { timeoutMs: 60_000, initialIntervalMs: 50 });
    const retried = await retryToEnd(through, await idOf(through, 'corrupt.pdf'));
    expect(retried.finished).toMatchObject({ status: 'failed', attempts: 2 });
    truth = await seedViews(through);
    expect(truth.reads.map((d) => [d.filename, d.status])).toEqual([
      ['truncated.png', 'failed'],
      ['corrupt.pdf', 'failed'],
      ['scanned.png', 'completed'],
      ['multipage.pdf', 'completed'],
      ['text.pdf', 'completed'],
    ]);

    const flushed = await (await fetch(`${proxy.baseUrl}/_proxy/record/flush`, { method: 'POST' })).json();
    expect(flushed).toMatchObject({ file, documents: 5, notRecorded: { total: 0, byReason: {} }, completedWithoutText: 0 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ documents: expect.any(Array) });
    expect(await proxy.stop('SIGTERM')).toBe(0);
    expect(proxy.output()).toContain(`docproc proxy: recorded into ${file}: 5 documents from`);

    recordedText = await readFile(file, 'utf8');
    recording = JSON.parse(recordedText);
    expect(recordedText).not.toContain(KEY);
    expect(recording).toEqual({
      documents: FIXTURES.map((filename) => {
        const read = truth.reads.find((d) => d.filename === filename)!;
        return {
          filename,
          status: read.status,
          ...(read.status === 'completed' ? { content: read.content } : {}),
          ...(read.status === 'failed' ? { error: read.error } : {}),
          age_s: expect.any(Number),
          attempts: read.attempts,
        };
      }),
    });
  }, 180_000);

  it('starts a fresh `docproc serve --seed-file` whose lists, searches and reads answer the same documents, and whose recorded failure retries as the contract says', async () => {
    const sandbox = await start(
      ['serve', '--seed-file', join(dir, 'recording.json'), '--data-dir', join(dir, 'sandbox'), '--processing-delay-ms', '20'],
      '/docs',
    );
    const seeded = client(sandbox.baseUrl);
    expect(await seedViews(seeded)).toEqual(truth);
    const { before, accepted, finished } = await retryToEnd(seeded, await idOf(seeded, 'corrupt.pdf'));
    expect(accepted).toMatchObject({
      status: 202,
      data: {
        filename: 'corrupt.pdf',
        status: 'processing',
        attempts: before.attempts + 1,
        error: null,
        content: null,
        processed_at: null,
      },
    });
    expect(finished).toMatchObject({
      attempts: before.attempts + 1,
      status: expect.stringMatching(/^(completed|failed)$/),
      processed_at: expect.any(String),
    });
    await sandbox.stop();
  }, 120_000);

  it('starts MSW handlers from the same file that answer the same documents, and retry the recorded failure', async () => {
    const baseUrl = 'http://docproc.test';
    const handlers = createDocprocHandlers({ baseUrl, processingDelayMs: 0, seed: JSON.parse(recordedText) });
    const msw = setupServer(...handlers);
    msw.listen({ onUnhandledRequest: 'bypass' });
    try {
      const mocked = client(baseUrl);
      expect(await seedViews(mocked)).toEqual(truth);
      const { before, accepted, finished } = await retryToEnd(mocked, await idOf(mocked, 'truncated.png'));
      expect(accepted).toMatchObject({
        status: 202,
        data: { status: 'processing', attempts: before.attempts + 1, error: null, content: null },
      });
      expect(finished).toMatchObject({ attempts: before.attempts + 1, status: expect.stringMatching(/^(completed|failed)$/) });
    } finally {
      msw.close();
      await handlers.close();
    }
  }, 60_000);
});

describe('docproc proxy --redact-content without --record', () => {
  it('is a usage error naming the option it goes with', () => {
    const result = spawnSync(process.execPath, docprocArgs(['proxy', '--target', server.baseUrl, '--redact-content']), {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--redact-content, --redact-filenames and --redact-seed go with --record <file>');
  }, 60_000);
});

describe('docproc proxy --record in front of a service that breaks the contract', () => {
  it('records only the answers it judged valid, and counts the others under the check they failed', async () => {
    const mutant = contractMutants.find((m) => m.name === 'list-carries-content')!;
    const broken = await startMutationProxy(server.baseUrl, mutant.mutation({ primary: KEY, secondary: 'docproc-second-key' }));
    try {
      const file = join(dir, 'broken.json');
      const proxy = await start(['proxy', '--target', broken.baseUrl, '--record', file], '/_proxy/report');
      const through = client(proxy.baseUrl);
      for (const query of [{}, { status_filter: 'failed' as const }, { search: 'pdf' }]) await through.listDocuments(query);
      await through.getDocument(await idOf(client(server.baseUrl), 'text.pdf'));
      const flushed = await (await fetch(`${proxy.baseUrl}/_proxy/record/flush`, { method: 'POST' })).json();
      expect(flushed).toMatchObject({
        documents: 1,
        answers: 1,
        notRecorded: { total: 3, byReason: { 'response.no-forbidden-properties': 3 } },
      });
      expect((await (await fetch(`${proxy.baseUrl}/_proxy/report`)).json()).recording).toMatchObject({ notRecorded: { total: 3 } });
      expect(await proxy.stop('SIGTERM')).toBe(0);
      expect(proxy.output()).toContain(
        `docproc proxy: recorded into ${file}: 1 document from 1 answer; 3 answers not recorded (response.no-forbidden-properties 3)`,
      );
      expect(JSON.parse(await readFile(file, 'utf8')).documents.map((d: { filename: string }) => d.filename)).toEqual(['text.pdf']);
    } finally {
      await broken.close();
    }
  }, 90_000);
});

describe('docproc proxy --record --redact-content --redact-filenames', () => {
  it('keeps no word of the original texts or names, and a search for a generated word finds its document', async () => {
    const file = join(dir, 'redacted.json');
    const proxy = await start(
      ['proxy', '--target', server.baseUrl, '--record', file, '--redact-content', '--redact-filenames', '--redact-seed', 'test-key'],
      '/_proxy/report',
    );
    await seedViews(client(proxy.baseUrl));
    expect(await proxy.stop('SIGTERM')).toBe(0);
    const redacted = JSON.parse(await readFile(file, 'utf8')) as SeedFileBody;
    const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];
    const kept = new Set(
      redacted.documents.flatMap((d) => [...words(d.content ?? ''), ...words(d.filename ?? '')]).map((w) => w.toLowerCase()),
    );
    const originals = truth.reads.flatMap((d) => [...words(d.content ?? ''), ...words(d.filename.replace(/\.[^.]+$/, ''))]);
    expect(originals.length).toBeGreaterThan(10);
    expect(originals.filter((word) => kept.has(word.toLowerCase()))).toEqual([]);
    // Same lengths, same layout: each text has its original's shape, letters aside.
    const shape = (text: string) => text.replace(/\p{L}/gu, 'a').replace(/\p{N}/gu, '0');
    const byExtension = (name: string) => name.slice(name.lastIndexOf('.'));
    expect(redacted.documents.map((d) => shape(d.content ?? ''))).toEqual(
      [...truth.reads].reverse().map((d) => shape(d.status === 'completed' ? (d.content ?? '') : '')),
    );
    expect(redacted.documents.map((d) => byExtension(d.filename ?? ''))).toEqual(
      [...truth.reads].reverse().map((d) => byExtension(d.filename)),
    );

    const text = redacted.documents.find((d) => d.content?.includes('\n'))!;
    const word = words(text.content!).sort((a, b) => b.length - a.length)[0]!;
    const mock = createDocprocFetch({ baseUrl: 'http://docproc.test', processingDelayMs: 0, seed: redacted });
    const found = await client('http://docproc.test', mock).listDocuments({ search: word.toLowerCase() });
    expect(found.data?.documents.map((d) => d.filename)).toEqual([text.filename]);
    await mock.close();
  }, 120_000);
});
