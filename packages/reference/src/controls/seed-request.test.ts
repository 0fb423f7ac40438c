import { readFile } from 'node:fs/promises';
import { BUNDLED } from '@docproc-kit/contract/bundled.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ApiError } from '../http/problem.js';
import { MAX_LISTED_ERRORS, MAX_SEEDED_DOCUMENTS, MAX_SEEDED_TEXT_BYTES, parseSeeds } from './seed-request.js';

function refusal(body: unknown): ApiError {
  try {
    parseSeeds(body);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('parseSeeds accepted the body');
}
const names = (error: ApiError) => error.extra.errors!.map((e) => e.name);

describe('parseSeeds bounds the work of one seed request', () => {
  it('holds the bounds the controls’ OpenAPI document states (x-seed-limits)', async () => {
    const spec = parse(await readFile(new URL('../../../contract/openapi/mock-controls.yaml', import.meta.url), 'utf8'));
    const seed = spec.paths['/_mock/seed'].post;
    expect(seed['x-seed-limits']).toEqual({
      max_documents: MAX_SEEDED_DOCUMENTS,
      max_text_bytes: MAX_SEEDED_TEXT_BYTES,
      max_listed_errors: MAX_LISTED_ERRORS,
    });
    expect(spec.components.schemas.SeedRequest.properties.documents.maxItems).toBe(MAX_SEEDED_DOCUMENTS);
  });

  it('refuses a documents array longer than the bound before reading any entry, with one error', () => {
    // 2 MB of empty entries: each would be an error of its own.
    const error = refusal({ documents: Array.from({ length: 500_000 }, () => ({})) });
    expect(error.extra.errors).toEqual([
      { in: 'body', name: 'documents', message: `at most ${MAX_SEEDED_DOCUMENTS} documents per request (this one has 500000 entries)` },
    ]);
  });

  it('lists the first errors of a body full of them, and counts the rest', () => {
    const error = refusal({ documents: Array.from({ length: 50 }, () => ({ status: 'done' })) });
    expect(error.extra.errors).toHaveLength(MAX_LISTED_ERRORS + 1);
    expect(error.extra.errors!.at(-1)).toEqual({
      in: 'body',
      name: 'documents',
      message: `${50 - MAX_LISTED_ERRORS} more errors not listed (at most ${MAX_LISTED_ERRORS} are)`,
    });
    expect(error.message).toBe('The seed has 50 invalid fields.');
  });

  it('refuses more text than the bound once count multiplies it, naming the bound', () => {
    const content = 'x'.repeat(1_900_000);
    const error = refusal({ documents: [{ status: 'completed', content, count: 40 }] });
    expect(names(error)).toEqual(['documents']);
    expect(error.extra.errors![0]!.message).toMatch(new RegExp(`^at most ${MAX_SEEDED_TEXT_BYTES} bytes of text per request`));
    expect(parseSeeds({ documents: [{ status: 'completed', content, count: 4 }] })).toHaveLength(4);
  });

  it('refuses counts that add up past the bound', () => {
    const error = refusal({
      documents: [
        { status: 'completed', count: 600 },
        { status: 'failed', count: 600 },
      ],
    });
    expect(error.extra.errors![0]!.message).toMatch(/counts add up to 1200/);
  });
});

describe('parseSeeds holds seeded documents to the contract’s limits', () => {
  const max = BUNDLED.maxFilenameLength;

  it('refuses a filename that {n} numbering makes longer than the contract allows', () => {
    const filename = `${'a'.repeat(max - 3)}{n}`;
    expect(parseSeeds({ documents: [{ status: 'failed', filename, count: 9 }] }).at(-1)!.filename).toHaveLength(max - 2);
    const error = refusal({ documents: [{ status: 'failed', filename, count: 1000 }] });
    expect(error.extra.errors).toEqual([
      {
        in: 'body',
        name: 'documents[0].filename',
        message: `must be at most ${max} characters once {n} is numbered (with n = 1000 it has ${max + 1})`,
      },
    ]);
  });

  it.each([
    ['a NUL in a filename', { status: 'completed', filename: 'a\u0000.pdf' }, 'documents[0].filename', /U\+0000/],
    ['a NUL in a content', { status: 'completed', content: 'x\u0000' }, 'documents[0].content', /U\+0000/],
    [
      'a NUL in an error message',
      { status: 'failed', error: { code: 'processing_error', message: '\u0000' } },
      'documents[0].error',
      /^message must not contain U\+0000/,
    ],
    ['a lone surrogate in a content', { status: 'completed', content: 'x\uD800' }, 'documents[0].content', /lone surrogate \(U\+D800\)/],
    ['a lone surrogate in a filename', { status: 'completed', filename: '\uDC00.pdf' }, 'documents[0].filename', /lone surrogate/],
  ])('refuses %s, naming the field', (_, entry, field, message) => {
    const error = refusal({ documents: [entry] });
    expect(error.extra.errors).toEqual([{ in: 'body', name: field, message: expect.stringMatching(message) }]);
  });
});
