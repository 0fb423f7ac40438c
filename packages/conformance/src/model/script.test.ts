import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sequenceScript } from './script.js';
import type { Step } from './sequence-context.js';

const dir = mkdtempSync(join(tmpdir(), 'model-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = 'http://127.0.0.1:4010/api/v1/documents';
const steps: Step[] = [
  {
    title: 'upload as the first key',
    model: '202 with 1 new processing document(s)',
    target: '202 ids [812]',
    calls: [
      {
        tenant: 'primary',
        request: {
          method: 'POST',
          url: `${base}/upload_files`,
          key: 'primary',
          headers: { 'x-request-id': 'r-1', 'Idempotency-Key': "it's-k0" },
          body: {
            kind: 'files',
            parts: [{ field: 'files[]', filename: 'tok-é.pdf', contentType: 'application/pdf', data: new Uint8Array([1]) }],
          },
        },
        creates: ['D1'],
      },
    ],
  },
  {
    title: 'read D1 until its run has ended',
    model: 'completed or failed',
    calls: [
      {
        tenant: 'secondary',
        request: { method: 'GET', url: `${base}/get_document/812`, key: 'secondary', headers: {} },
        names: { id: 812, alias: 'D1' },
        poll: true,
      },
    ],
  },
  {
    title: 'retry D1 as the first key',
    model: '202',
    target: '409 "document_busy"',
    failed: true,
    calls: [
      {
        tenant: 'primary',
        request: { method: 'POST', url: `${base}/retry_documents/812`, key: 'primary', headers: {} },
        names: { id: 812, alias: 'D1' },
      },
    ],
  },
];

describe('sequenceScript', () => {
  const script = sequenceScript(steps, { bodyDir: dir, header: ['model run, seed 7'] });

  it('is a shell script whose documents are shell variables, captured from the uploads that make them', () => {
    expect(script.split('\n')[0]).toBe('#!/bin/sh');
    expect(script).toContain(`set -- $(curl -sS -g -X POST "${base}/upload_files" -H "x-api-key: $DOCPROC_API_KEY"`);
    expect(script).toMatch(/\| ids\); D1=\$1$/m);
    expect(script).toContain(`while curl -sS -g -X GET "${base}/get_document/$D1" -H "x-api-key: $DOCPROC_SECOND_API_KEY"`);
    expect(script).toContain(`curl -sS -i -g -X POST "${base}/retry_documents/$D1" -H "x-api-key: $DOCPROC_API_KEY"; echo`);
    expect(script).not.toContain('812"');
  });

  it("puts the model's expectation beside the target's answer, marking the step that differs", () => {
    expect(script).toContain('# 3. retry D1 as the first key   <-- differs\n#    model:  202\n#    target: 409 "document_busy"');
  });

  it('quotes headers for the shell, leaves the request id out, and writes the files it sends', () => {
    expect(script).toContain(`-H 'Idempotency-Key: it'\\''s-k0'`);
    expect(script).not.toContain('r-1');
    expect(readdirSync(dir)).toHaveLength(1);
  });
});
