import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { curlCommand, shellQuote } from './curl.js';

const dir = mkdtempSync(join(tmpdir(), 'curl-test-'));

describe('curl reproducers', () => {
  it('never contains the key, only the environment variable that holds it', () => {
    const cmd = curlCommand(
      { method: 'GET', url: 'http://h/api/v1/documents/get_documents?page=1', key: 'primary', headers: { 'x-request-id': 'r-1' } },
      dir,
      1,
    );
    expect(cmd).toBe(
      `curl -sS -i -g -X GET 'http://h/api/v1/documents/get_documents?page=1' -H "x-api-key: $DOCPROC_API_KEY" -H 'x-request-id: r-1'`,
    );
  });

  it('names the second key by its own variable and leaves a keyless request without the header', () => {
    expect(curlCommand({ method: 'GET', url: 'http://h/x', key: 'secondary', headers: {} }, dir, 2)).toContain('$DOCPROC_SECOND_API_KEY');
    expect(curlCommand({ method: 'GET', url: 'http://h/x', key: 'none', headers: {} }, dir, 3)).not.toContain('x-api-key');
  });

  it('writes file parts to disk and sends them with -F, keeping a non-ASCII filename', () => {
    const data = new TextEncoder().encode('%PDF-1.7');
    const cmd = curlCommand(
      {
        method: 'POST',
        url: 'http://h/u',
        key: 'primary',
        headers: {},
        body: { kind: 'files', parts: [{ field: 'files[]', filename: 'Grüße "x".pdf', contentType: 'application/pdf', data }] },
      },
      dir,
      4,
    );
    const path = /files\[\]=@([^;]+);/.exec(cmd)![1]!;
    expect(readFileSync(path, 'utf8')).toBe('%PDF-1.7');
    expect(cmd).toContain(`filename="Grüße \\"x\\".pdf";type=application/pdf'`);
  });

  it('sends raw bodies byte for byte, and no content type when none was sent', () => {
    const cmd = curlCommand(
      { method: 'POST', url: 'http://h/u', key: 'primary', headers: {}, body: { kind: 'raw', data: new Uint8Array([1, 2]) } },
      dir,
      5,
    );
    expect(cmd).toContain('-H content-type: --data-binary @');
    expect([...readFileSync(/@(\S+)$/.exec(cmd)![1]!)]).toEqual([1, 2]);
  });

  it.each([
    ['plain', 'plain'],
    ["it's", `'it'\\''s'`],
    ['$HOME', `'$HOME'`],
  ])('quotes %s for the shell as %s', (input, quoted) => {
    expect(shellQuote(input)).toBe(quoted);
  });
});
