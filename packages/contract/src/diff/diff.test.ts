import { at, bundledDocument, edited } from '@docproc-kit/test-support/contract-edits.js';
import { dump, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { diffContracts } from './index.js';

type Doc = Record<string, unknown>;
const LIST = '/api/v1/documents/get_documents';
const UPLOAD = '/api/v1/documents/upload_files';

/** The bundled contract with every component renamed (`V1<name>`, in reverse order), its refs and security names following, dumped as JSON. */
function renamedAndReformatted(): Doc {
  const document = bundledDocument();
  const components = document.components as Record<string, Doc>;
  const refs = new Map<string, string>();
  for (const [section, entries] of Object.entries(components)) {
    components[section] = Object.fromEntries(
      Object.entries(entries)
        .reverse()
        .map(([name, value]) => {
          refs.set(`#/components/${section}/${name}`, `#/components/${section}/V1${name}`);
          return [`V1${name}`, value];
        }),
    );
  }
  const walk = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(walk)
      : node && typeof node === 'object'
        ? Object.fromEntries(
            Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? (refs.get(v) ?? v) : walk(v)]),
          )
        : node;
  const renamed = walk(document) as Doc;
  renamed.security = [{ V1ApiKeyAuth: [] }];
  return JSON.parse(JSON.stringify(renamed, null, 4)) as Doc;
}

describe('the contract diff', () => {
  it('finds nothing between the bundled contract and itself', () => {
    expect(diffContracts(bundledDocument(), bundledDocument())).toEqual({ changes: [], implementers: [], prose: [] });
  });

  it('finds nothing between the bundled contract and a copy with every component renamed, reordered and written as JSON', () => {
    expect(diffContracts(bundledDocument(), renamedAndReformatted())).toEqual({ changes: [], implementers: [], prose: [] });
  });

  it('finds nothing between the bundled contract and a copy dumped as other YAML', () => {
    const redumped = load(dump(bundledDocument(), { lineWidth: 60, sortKeys: true })) as Doc;
    expect(diffContracts(bundledDocument(), redumped)).toEqual({ changes: [], implementers: [], prose: [] });
  });

  it('says where a change is, what it was and what it became', () => {
    const head = edited((d) => {
      (at(d, 'components/parameters/Limit').schema as Doc).maximum = 50;
    });
    expect(diffContracts(bundledDocument(), head).changes).toEqual([
      {
        rule: 'request-max-decreased',
        severity: 'breaking',
        location: `GET ${LIST} query.limit maximum`,
        why: expect.stringMatching(/^HEAD lowers .*refused\.$/),
        base: 100,
        head: 50,
      },
    ]);
  });

  it('names a property of a response schema by its path from the body', () => {
    const head = edited((d) => {
      (at(d, 'components/schemas/DocumentStatus').enum as string[]).push('cancelled');
    });
    const locations = diffContracts(bundledDocument(), head)
      .changes.filter((c) => c.rule === 'response-enum-value-added')
      .map((c) => c.location);
    expect(locations).toContain(`GET ${LIST} response 200 application/json.documents[].status`);
    expect(locations).toContain('GET /api/v1/documents/get_document/{document_id} response 200 application/json.status');
  });

  it('lists apart what an implementation of BASE must change, for compatible changes too', () => {
    const head = edited((d) => {
      (at(d, `paths/${UPLOAD.replace(/\//g, '~1')}/post/x-default-limits`) as Doc).max_files = 50;
    });
    const diff = diffContracts(bundledDocument(), head);
    expect(diff.changes.map((c) => c.severity)).toEqual(['compatible']);
    expect(diff.implementers).toEqual([
      { rule: 'x-limit-increased', location: `POST ${UPLOAD} x-default-limits.max_files`, what: 'Accept requests up to the new limit.' },
    ]);
  });

  it('follows a recursive schema without looping', () => {
    const tree = (leaf: string) => ({
      type: 'object',
      properties: { name: { type: leaf }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
    });
    const withTree = (leaf: string) =>
      edited((d) => {
        (at(d, 'components/schemas') as Doc).Tree = tree(leaf);
        (at(d, 'components/schemas/Problem').properties as Doc).tree = { $ref: '#/components/schemas/Tree' };
      });
    const changes = diffContracts(withTree('string'), withTree('integer')).changes;
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((c) => c.rule === 'response-type-widened')).toBe(true);
  });

  it.each([
    [
      'a $ref to nothing',
      { $ref: '#/components/schemas/Nowhere' },
      /^HEAD: .*points at nothing in the document \(at \/components\/schemas\/Problem\/properties\/extra\)$/,
    ],
    ['a $ref to another file', { $ref: 'other.yaml#/Problem' }, /external \$ref/],
  ])('refuses %s, saying which', (_, ref, message) => {
    const head = edited((d) => {
      (at(d, 'components/schemas/Problem').properties as Doc).extra = ref;
    });
    expect(() => diffContracts(bundledDocument(), head)).toThrow(message);
  });

  it('refuses what is not a document', () => {
    expect(() => diffContracts(bundledDocument(), [] as unknown as Doc)).toThrow(/must be an object/);
  });
});
