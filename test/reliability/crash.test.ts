import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocprocClient, type Document } from '@docproc-kit/client';
import { type RunningCli, startCli } from '@docproc-kit/test-support/processes.js';
import { uploadTempFiles } from '@docproc-kit/test-support/reference-server.js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// SIGKILL the real server process in the middle of a burst of uploads, restart it on the same data
// dir, and check that nothing acknowledged was lost and nothing half-written was left behind.
const KEY = 'docproc-dev-key';
const BURST = 50;
let dataDir: string;
const servers: RunningCli[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docproc-crash-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  await rm(dataDir, { recursive: true, force: true });
});

const serve = async () => {
  const server = await startCli(['serve', '--data-dir', dataDir, '--processing-delay-ms', '300', '--log-level', 'silent'], {
    readyPath: '/api/v1/documents/get_documents',
  });
  servers.push(server);
  return server;
};

/** A real one-page PDF whose text is a word unique to upload `i`, so its content proves its bytes. */
async function pdfBytes(i: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText(wordOf(i), { x: 20, y: 100, size: 14, font });
  // Trailing comment bytes (still a valid PDF) of growing size make the uploads finish one after
  // another, so the kill lands with some acknowledged and others still arriving.
  const bytes = await doc.save();
  const padded = new Uint8Array(bytes.length + i * 100 * 1024).fill(0x25);
  padded.set(bytes);
  return padded;
}
const wordOf = (i: number) => `crashword${i}x`;

describe('a server killed with SIGKILL during a burst of 50 concurrent uploads', () => {
  it('keeps every acknowledged upload with its bytes, finishes them after restart, and leaves no temp files', async () => {
    const first = await serve();
    const client = createDocprocClient({ baseUrl: first.baseUrl, apiKey: KEY });
    const files = await Promise.all(Array.from({ length: BURST }, (_, i) => pdfBytes(i)));
    const acknowledged: Document[] = [];
    let killed = false;
    const uploads = Array.from(
      { length: BURST },
      (_, i) =>
        client
          .uploadDocuments([{ name: `crash-${i}.pdf`, data: files[i]!, type: 'application/pdf' }])
          .then(({ data }) => {
            if (!data) return;
            acknowledged.push(...data.documents);
            // Kill once a few uploads are acknowledged and the others are still in flight.
            if (acknowledged.length >= 3 && !killed) {
              killed = true;
              first.child.kill('SIGKILL');
            }
          })
          .catch(() => undefined), // connections cut by the kill
    );
    await Promise.all(uploads);
    await first.stop('SIGKILL');
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(3);
    expect(acknowledged.length).toBeLessThan(BURST); // the kill really interrupted the burst

    // The db file still parses as JSON after the kill (a torn write would not).
    const dbText = await readFile(join(dataDir, 'db.json'), 'utf8');
    expect(() => JSON.parse(dbText)).not.toThrow();
    // The uploads cut off mid-body left temp files: the restart below has something to sweep.
    expect((await uploadTempFiles(dataDir)).length).toBeGreaterThan(0);

    const second = await serve();
    const after = createDocprocClient({ baseUrl: second.baseUrl, apiKey: KEY });
    for (const doc of acknowledged) {
      const { data } = await after.getDocument(doc.document_id);
      expect(data, `document ${doc.document_id} acknowledged before the kill`).toMatchObject({
        document_id: doc.document_id,
        filename: doc.filename,
        size_bytes: doc.size_bytes,
      });
    }
    // Documents that were processing at the kill are picked up again and finish, from their bytes:
    // each one's text is the word only its own file contains.
    for (const doc of acknowledged) {
      const { data } = await after.waitForDocument(doc.document_id, { timeoutMs: 60_000 });
      const i = Number(/crash-(\d+)\.pdf/.exec(doc.filename)![1]);
      expect(data).toMatchObject({ status: 'completed', content: expect.stringContaining(wordOf(i)) });
    }
    // Ids stay unique after the restart: a new upload gets an id above every acknowledged one.
    const { data: fresh } = await after.uploadDocuments([{ name: 'after-restart.pdf', data: files[0]! }]);
    expect(fresh!.documents[0]!.document_id).toBeGreaterThan(Math.max(...acknowledged.map((d) => d.document_id)));

    // Interrupted uploads left temp files behind; start-up sweeps them.
    expect(await uploadTempFiles(dataDir)).toEqual([]);
  }, 120_000);
});
