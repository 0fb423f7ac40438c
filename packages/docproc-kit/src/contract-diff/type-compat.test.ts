import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundledContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { at, edited } from '@docproc-kit/test-support/contract-edits.js';
import { dump } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { typeFailures } from './type-compat.js';

// BASE's generated client types compiled against HEAD's, on real edited contracts.
const dir = mkdtempSync(join(tmpdir(), 'docproc-type-compat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = (await loadBundledContract()).document;
const LIST = 'GET /api/v1/documents/get_documents';

function head(name: string, edit: (doc: Record<string, unknown>) => unknown): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, dump(edited(edit)));
  return file;
}

describe("BASE's client types against HEAD's", () => {
  it('compile when HEAD is BASE', async () => {
    expect(await typeFailures(bundledSpecPath, base, bundledSpecPath)).toEqual([]);
  });

  it.each([
    [
      'a response field renamed',
      head('renamed', (doc) => {
        const fields = at(doc, 'components/schemas/DocumentFields');
        const properties = fields.properties as Record<string, unknown>;
        properties.id = properties.document_id;
        delete properties.document_id;
        fields.required = (fields.required as string[]).map((r) => (r === 'document_id' ? 'id' : r));
      }),
      `${LIST}: the fields it reads of a 200 application/json answer`,
      "'document_id'",
    ],
    [
      'a required query parameter added',
      head('required-page', (doc) => {
        at(doc, 'components/parameters/Page').required = true;
      }),
      `${LIST}: the query parameters it sends`,
      'undefined',
    ],
    [
      'an operation removed',
      head('removed', (doc) => delete at(doc, 'paths')['/api/v1/documents/get_documents']),
      `${LIST}: the operation it calls`,
      '"missing"',
    ],
  ])('fail, named, on %s', async (_, headPath, what, says) => {
    const failures = await typeFailures(bundledSpecPath, base, headPath);
    expect(failures.find((f) => f.what === what)?.message, JSON.stringify(failures, null, 2)).toContain(says);
    // Only where BASE's client meets the change: an operation gone is one failure, not one per statement.
    if (what.endsWith('the operation it calls')) expect(failures).toHaveLength(1);
  });
});
