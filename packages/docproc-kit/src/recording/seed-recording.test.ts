import { parseSeeds } from '@docproc-kit/reference/controls/seed-request.js';
import { describe, expect, it } from 'vitest';
import type { DocumentView } from './document-views.js';
import { createSeedRecording, describeRecording } from './seed-recording.js';

const NOW = new Date('2026-01-01T12:00:00.000Z');
const view = (id: number, fields: Partial<DocumentView> = {}): DocumentView => ({
  document_id: id,
  filename: `doc-${id}.pdf`,
  status: 'processing',
  attempts: 1,
  error: null,
  created_at: '2026-01-01T11:00:00.000Z',
  updated_at: '2026-01-01T11:00:00.000Z',
  ...fields,
});
const failure = { code: 'processing_error' as const, message: 'The run was interrupted.' };

describe('a seed recording', () => {
  it.each([
    {
      name: 'a later view wins over an earlier one, whatever order they were seen in',
      seen: [view(1, { status: 'completed', updated_at: '2026-01-01T11:00:05.000Z', content: 'Hello' }), view(1)],
      expected: { filename: 'doc-1.pdf', status: 'completed', content: 'Hello', age_s: 3600, attempts: 1 },
    },
    {
      name: "a list's view (no text) keeps the text a read of the same run showed",
      seen: [
        view(1, { status: 'completed', updated_at: '2026-01-01T11:00:05.000Z', content: 'Hello' }),
        view(1, { status: 'completed', updated_at: '2026-01-01T11:00:05.000Z' }),
      ],
      expected: { filename: 'doc-1.pdf', status: 'completed', content: 'Hello', age_s: 3600, attempts: 1 },
    },
    {
      name: 'the text of an earlier run is not the text of a later one',
      seen: [
        view(1, { status: 'completed', updated_at: '2026-01-01T11:00:05.000Z', content: 'First run' }),
        view(1, { status: 'completed', attempts: 2, updated_at: '2026-01-01T11:10:00.000Z' }),
      ],
      expected: { filename: 'doc-1.pdf', status: 'completed', age_s: 3600, attempts: 2 },
    },
    {
      name: 'a failure keeps its error and attempts',
      seen: [view(1, { status: 'failed', attempts: 3, error: failure, updated_at: '2026-01-01T11:30:00.000Z' })],
      expected: { filename: 'doc-1.pdf', status: 'failed', error: failure, age_s: 3600, attempts: 3 },
    },
  ])('$name', ({ seen, expected }) => {
    const recording = createSeedRecording();
    for (const shown of seen) recording.observe([shown], 'tenant');
    expect(recording.contents({ now: NOW })).toEqual({ documents: [expected] });
  });

  it('writes documents in id order, one body per tenant, each body within a seed request’s bounds and accepted by it', () => {
    const recording = createSeedRecording();
    recording.observe(
      Array.from({ length: 1500 }, (_, i) => view(1500 - i)),
      'a',
    );
    recording.observe([view(7)], 'b');
    const contents = recording.contents({ now: NOW }) as Array<{ documents: Array<{ filename: string }> }>;
    expect(contents.map((body) => body.documents.length)).toEqual([1000, 500, 1]);
    expect(contents[0]!.documents[0]!.filename).toBe('doc-1.pdf');
    for (const body of contents) expect(parseSeeds(body)).toHaveLength(body.documents.length);
  });

  it('counts what it did not record, by reason, and says so in one sentence', () => {
    const recording = createSeedRecording();
    recording.observe([view(1, { status: 'completed' })], 'tenant');
    recording.refuse(['response.body-matches-schema']);
    recording.refuse(['response.body-matches-schema', 'get.matches-upload']);
    expect(recording.summary()).toEqual({
      documents: 1,
      answers: 1,
      notRecorded: { total: 2, byReason: { 'response.body-matches-schema': 2, 'get.matches-upload': 1 } },
      completedWithoutText: 1,
    });
    expect(describeRecording(recording.summary())).toBe(
      '1 document from 1 answer; 2 answers not recorded (response.body-matches-schema 2, get.matches-upload 1); 1 completed document was never read, so the text is not in it (seeded with the default text)',
    );
  });

  it('redacts texts and filenames with one key alike on every write, keeping extensions, and nothing without redaction asked', () => {
    const recording = createSeedRecording();
    recording.observe([view(1, { filename: 'Harbor invoice.pdf', status: 'completed', content: 'Harbor Logistics\nTotal 4.50' })], 't');
    const plain = recording.contents({ now: NOW }) as { documents: Array<{ filename: string; content: string }> };
    expect(plain.documents[0]).toMatchObject({ filename: 'Harbor invoice.pdf', content: 'Harbor Logistics\nTotal 4.50' });
    const options = { now: NOW, redactContent: true, redactFilenames: true, redactSeed: 'k' };
    const once = recording.contents(options) as typeof plain;
    expect(recording.contents(options)).toEqual(once);
    const [doc] = once.documents;
    expect(doc!.filename).toMatch(/^[A-Z][a-z]{5} [a-z]{7}\.pdf$/);
    expect(doc!.content).toMatch(/^[A-Z][a-z]{5} [A-Z][a-z]{8}\n[A-Z][a-z]{4} \d\.\d\d$/);
    // The same word in the name and in the text becomes the same generated word.
    expect(doc!.filename.split(' ')[0]).toBe(doc!.content.split(' ')[0]);
  });
});
