import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { bundledSpecPath } from '@docproc-kit/contract/paths.js';
import { textPdfOfPages } from '@docproc-kit/contract/text-pdf.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { KeyChoice, RequestBody, SentRequest } from '../definitions/exchange.js';
import { proseRules } from '../rules/prose.js';
import { buildMultipart } from '../transport/multipart.js';
import { PAIRS_INPUT, partitionCatalog } from './partition-catalog.js';
import { isGap } from './partitions.js';
import { prosePartitionSources } from './prose-partitions.js';
import { sentParts } from './upload-partitions.js';

const yaml = readFileSync(bundledSpecPath, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'partition-catalog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The contract with `edits` applied, loaded as the suite loads one. */
async function edited(edits: Array<[string, string]>) {
  let text = yaml;
  for (const [from, to] of edits) {
    const next = text.replace(from, () => to);
    if (next === text) throw new Error(`edit not applied: ${from}`);
    text = next;
  }
  const file = join(dir, `openapi-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  return loadContract(file);
}

const contract = await loadContract();
const catalog = partitionCatalog(contract, { token: 'tok' });
const names = (operation: string, c = catalog) =>
  (c.operations.find((o) => o.operation === operation)?.inputs ?? []).flatMap((i) => i.partitions.map((p) => `${i.input}: ${p.id}`));
const base = 'http://127.0.0.1:4010/api/v1/documents';
const request = (url: string, extra: Partial<SentRequest> = {}): SentRequest => ({
  method: 'GET',
  url,
  key: 'primary',
  headers: {},
  ...extra,
});
const pdf = new TextEncoder().encode('%PDF-1.7\n');
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);

describe('the partition catalogue, derived from the contract', () => {
  it('has every input of the four operations: the key, each query parameter, each header, the path id, the upload and its parts', () => {
    expect(Object.fromEntries(catalog.operations.map((o) => [o.operation, o.inputs.map((i) => i.input)]))).toEqual({
      uploadDocuments: ['header x-api-key', 'header Idempotency-Key', 'header X-Request-Id', 'upload', 'upload part'],
      listDocuments: [
        'header x-api-key',
        'query page',
        'query limit',
        'query status_filter',
        'query search',
        'header X-Request-Id',
        'query (a name the contract does not list)',
        'query (pairs of parameters)',
        'query (refused parameters together)',
      ],
      getDocument: ['header x-api-key', 'path document_id', 'header X-Request-Id'],
      retryDocument: ['header x-api-key', 'path document_id', 'header X-Request-Id'],
    });
  });

  it.each([
    ['query limit: value: below minimum', '0'],
    ['query limit: value: at minimum', '1'],
    ['query limit: value: at maximum', '100'],
    ['query limit: value: above maximum', '101'],
    ['query limit: spelling: leading zero', '02'],
    ['query limit: spelling: plus sign', '+2'],
    ['query limit: spelling: exponent', '2e0'],
    ['query limit: spelling: whitespace', ' 2'],
    ['query limit: spelling: empty', ''],
    ['query page: value: at maximum', '9007199254740991'],
    ['query status_filter: value: failed', 'failed'],
    ['query status_filter: value: another case of a member', 'PROCESSING'],
    ['query search: length: at maximum', `tok${'k'.repeat(197)}`],
    ['query search: length: above maximum', `tok${'k'.repeat(198)}`],
    ['query search: alphabet: NUL', 'tok\u0000'],
  ])('generates %s from the schema or the prose (%j)', (name, value) => {
    const [input, ...rest] = name.split(': ');
    const partition = catalog.scalar('listDocuments', input!)?.partitions.find((p) => p.id === rest.join(': '));
    expect(partition?.value).toBe(value);
  });

  it('generates every partition of a scalar input, or names what does: a partition with neither is a gap', () => {
    const gaps = catalog.operations.flatMap((o) =>
      o.inputs.flatMap((i) => i.partitions.filter(isGap).map((p) => `${o.operation} ${i.input}: ${p.id}`)),
    );
    expect(gaps).toEqual([]);
  });

  it('names, for every prose partition, a rule of rules/prose.ts that quotes its sentence', () => {
    const ids = new Set(proseRules.map((r) => r.id));
    expect(prosePartitionSources().filter((id) => !ids.has(id))).toEqual([]);
  });

  it('gives a path id no empty spelling: an empty segment is another path', () => {
    expect(catalog.scalar('getDocument', 'path document_id')?.partitions.map((p) => p.id)).not.toContain('spelling: empty');
    expect(catalog.scalar('listDocuments', 'query page')?.partitions.map((p) => p.id)).toContain('spelling: empty');
  });

  it('lets a spelling the contract leaves open be read as its plain value', () => {
    const limit = catalog.scalar('listDocuments', 'query limit')!;
    expect(limit.partitions.filter((p) => p.sameAs !== undefined).map((p) => [p.id, p.value, p.sameAs])).toEqual([
      ['spelling: plus sign', '+2', '2'],
      ['spelling: leading zero', '02', '2'],
    ]);
  });

  it('adds the partitions of a constraint added to the contract, and drops those of one taken out', async () => {
    const changed = partitionCatalog(
      await edited([
        [
          '        type: string\n        minLength: 1\n        maxLength: 200\n      examples:\n        word:',
          "        type: string\n        minLength: 1\n        maxLength: 50\n        pattern: '^[a-z]+$'\n      examples:\n        word:",
        ],
        ['        minimum: 1\n        maximum: 9007199254740991\n        default: 1', '        minimum: 1\n        default: 1'],
      ]),
      { token: 'tok' },
    );
    const pair = (n: string) => n.startsWith(PAIRS_INPUT);
    const added = names('listDocuments', changed).filter((n) => !names('listDocuments').includes(n));
    const dropped = names('listDocuments').filter((n) => !names('listDocuments', changed).includes(n));
    expect(added).toEqual(['query search: alphabet: outside the pattern']);
    // An accepted partition gone takes its pairs with it: page at its maximum with the 4 + 4 + 5 accepted
    // partitions of the others, the multi-byte search with 4 + 4 + 4, one pair in both.
    expect(dropped.filter(pair)).toHaveLength(13 + 12 - 1);
    // A pattern of ASCII letters leaves no multi-byte value at the maximum length.
    expect(dropped.filter((n) => !pair(n))).toEqual([
      'query page: value: at maximum',
      'query page: value: above maximum',
      'query search: length: at maximum in multi-byte characters',
    ]);
    expect(changed.scalar('listDocuments', 'query search')?.partitions.find((p) => p.id === 'length: above maximum')?.value).toHaveLength(
      51,
    );
  });
});

describe('classifying a sent request into the catalogue', () => {
  it.each<[string, string, SentRequest, string[]]>([
    [
      'a plain list',
      'listDocuments',
      request(`${base}/get_documents`),
      ['query limit: presence: absent', 'query search: presence: absent'],
    ],
    ['a limit at its maximum', 'listDocuments', request(`${base}/get_documents?limit=100`), ['query limit: value: at maximum']],
    ['a limit with a leading zero', 'listDocuments', request(`${base}/get_documents?limit=010`), ['query limit: spelling: leading zero']],
    [
      'a limit sent twice',
      'listDocuments',
      request(`${base}/get_documents?limit=5&limit=5`),
      ['query limit: presence: repeated', 'query limit: value: inside the range'],
    ],
    [
      'a page and a status_filter refused at once',
      'listDocuments',
      request(`${base}/get_documents?page=0&status_filter=Completed&limit=010`),
      ['query (refused parameters together): refused: two or more parameters at once'],
    ],
    ['a search holding NUL', 'listDocuments', request(`${base}/get_documents?search=a%00b`), ['query search: alphabet: NUL']],
    [
      'a search for a term ending where a filename’s middle word ends',
      'listDocuments',
      request(`${base}/get_documents?search=toknamemiddle`),
      ['query search: found: in the middle of a filename'],
    ],
    [
      'a search for a term ending where a filename ends',
      'listDocuments',
      request(`${base}/get_documents?search=tok%20nameend.pdf`),
      ['query search: alphabet: wildcard or regular-expression characters', 'query search: found: at the end of a filename'],
    ],
    [
      'a search for a term ending where a word of the text ends',
      'listDocuments',
      request(`${base}/get_documents?search=toktextinword`),
      ['query search: found: inside a word of the text'],
    ],
    [
      'a cache-buster',
      'listDocuments',
      request(`${base}/get_documents?_=1`),
      ['query (a name the contract does not list): presence: one sent'],
    ],
    ['an id of 2^53', 'getDocument', request(`${base}/get_document/9007199254740992`), ['path document_id: value: above maximum']],
    [
      'an id in hex',
      'retryDocument',
      request(`${base}/retry_documents/0x2`, { method: 'POST' }),
      ['path document_id: spelling: other (hex, other digits)'],
    ],
    ['no key', 'getDocument', request(`${base}/get_document/1`, { key: 'none' }), ['header x-api-key: key: absent']],
    [
      "the other tenant's key",
      'getDocument',
      request(`${base}/get_document/1`, { key: 'secondary' as KeyChoice }),
      ["header x-api-key: key: another tenant's key"],
    ],
    [
      'an X-Request-Id of 201 characters',
      'getDocument',
      request(`${base}/get_document/1`, { headers: { 'X-Request-Id': 'r'.repeat(201) } }),
      ['header X-Request-Id: length: above maximum'],
    ],
    [
      'an X-Request-Id with letters, digits and every visible ASCII sign (`;`, `:`, `/`, `~`, `=`, quotes, backslash...)',
      'getDocument',
      request(`${base}/get_document/1`, { headers: { 'X-Request-Id': `r-Z9${'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'}` } }),
      ['header X-Request-Id: alphabet: every visible ASCII kind'],
    ],
  ])('puts %s in its partitions', (_, operation, sent, expected) => {
    expect(catalog.classify(operation, sent)).toEqual(expect.arrayContaining(expected));
  });

  it('does not count a spelling read either way as refused (one refused parameter is not several)', () => {
    expect(catalog.classify('listDocuments', request(`${base}/get_documents?page=0&limit=010`))).not.toContain(
      'query (refused parameters together): refused: two or more parameters at once',
    );
  });

  const upload = (body: RequestBody, headers: Record<string, string> = {}) =>
    catalog.classify('uploadDocuments', request(`${base}/upload_files`, { method: 'POST', body, headers }));
  it.each<[string, RequestBody, string[]]>([
    [
      'one PDF declared as a PNG, named .png',
      { kind: 'files', parts: [{ field: 'files[]', filename: 'a.png', contentType: 'image/png', data: pdf }] },
      [
        'upload: parts: one',
        'upload part: bytes: PDF',
        'upload part: declared type: another accepted type',
        'upload part: name: extension of another type',
      ],
    ],
    [
      'two parts, one under another field',
      {
        kind: 'files',
        parts: [
          { field: 'files[]', filename: 'a', contentType: 'application/pdf', data: png },
          { field: 'file', filename: 'b.pdf', contentType: 'application/pdf', data: pdf },
        ],
      },
      ['upload: parts: one', 'upload: field: another name than files[]', 'upload part: bytes: PNG', 'upload part: name: no extension'],
    ],
    [
      'a hand-built body with a filename* of 256 characters',
      (() => {
        const built = buildMultipart([{ field: 'files[]', filenameStar: `${'é'.repeat(252)}.pdf`, contentType: 'text/plain', data: pdf }]);
        return { kind: 'raw', contentType: built.contentType, data: built.body } as RequestBody;
      })(),
      [
        'upload part: name: written as filename*',
        'upload part: name: above the length limit',
        'upload part: name: non-ASCII',
        'upload part: declared type: not an accepted type',
      ],
    ],
    [
      'a JSON body',
      { kind: 'raw', contentType: 'application/json', data: new TextEncoder().encode('{}') },
      ['upload: body: not multipart/form-data'],
    ],
    [
      'a multipart body under a text media type with multipart/form-data in a parameter',
      { kind: 'raw', contentType: 'text/plain; boundary=x; note="multipart/form-data"', data: new TextEncoder().encode('--x--\r\n') },
      ['upload: body: not multipart/form-data', 'upload: body: multipart/form-data named only in a parameter'],
    ],
    [
      'a PDF of 501 pages',
      {
        kind: 'files',
        parts: [{ field: 'files[]', filename: 'long.pdf', contentType: 'application/pdf', data: textPdfOfPages(['x'], 501) }],
      },
      ['upload part: bytes: PDF', 'upload part: pages: hundreds (a PDF past a page limit)'],
    ],
    [
      'a files[] part without a filename, alone',
      {
        kind: 'raw',
        contentType: 'multipart/form-data; boundary=x',
        data: new TextEncoder().encode('--x\r\nContent-Disposition: form-data; name="files[]"\r\n\r\n%PDF-1.7\r\n--x--\r\n'),
      },
      ['upload: field: a text part (no filename) under files[], alone'],
    ],
    [
      'a name in decomposed Unicode (e + U+0301)',
      { kind: 'files', parts: [{ field: 'files[]', filename: 'Cafe\u0301.pdf', contentType: 'application/pdf', data: pdf }] },
      ['upload part: name: non-ASCII', 'upload part: name: decomposed Unicode (not NFC)'],
    ],
    [
      'two parts of one name, and a 0-byte one',
      {
        kind: 'files',
        parts: [
          { field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data: pdf },
          { field: 'files[]', filename: 'a.pdf', contentType: 'application/pdf', data: pdf },
          { field: 'files[]', filename: 'b.pdf', contentType: 'application/pdf', data: new Uint8Array() },
        ],
      },
      ['upload: names: two parts with the same name', 'upload: parts: a 0-byte file beside others'],
    ],
    ['no body at all', { kind: 'raw', data: new Uint8Array() }, ['upload: body: empty']],
  ])('puts an upload of %s in its partitions', (_, body, expected) => {
    expect(upload(body)).toEqual(expect.arrayContaining(expected));
  });

  it("puts two parts each under the deployment's per-file limit, together over it, in their partition", () => {
    const small = partitionCatalog(contract, { token: 'tok', maxFileBytes: 64 });
    const data = new Uint8Array(33);
    data.set(pdf);
    const halfAndAByte = { field: 'files[]', contentType: 'application/pdf', data };
    const body: RequestBody = {
      kind: 'files',
      parts: [
        { ...halfAndAByte, filename: '1.pdf' },
        { ...halfAndAByte, filename: '2.pdf' },
      ],
    };
    expect(small.classify('uploadDocuments', request(`${base}/upload_files`, { method: 'POST', body }))).toContain(
      'upload: size: each part under the per-file limit, together over it',
    );
    expect(upload(body)).not.toContain('upload: size: each part under the per-file limit, together over it');
  });

  it('reads a hand-built body back part by part, as FormData would have sent it', () => {
    const built = buildMultipart([
      { field: 'files[]', filename: 'naïve.pdf', contentType: 'application/pdf', data: pdf },
      { field: 'files[]', filenameStar: 'x\u0000y.png', data: png },
    ]);
    const parts = sentParts({ kind: 'raw', contentType: built.contentType, data: built.body })!;
    expect(parts.map((p) => [p.field, p.filename, p.star, p.contentType, p.data.length])).toEqual([
      ['files[]', 'naïve.pdf', false, 'application/pdf', pdf.length],
      ['files[]', 'x\u0000y.png', true, undefined, png.length],
    ]);
  });

  it('classifies the Idempotency-Key by its schema: at 255 characters, over, outside printable ASCII', () => {
    expect(upload({ kind: 'files', parts: [] }, { 'Idempotency-Key': 'k'.repeat(255) })).toContain(
      'header Idempotency-Key: length: at maximum',
    );
    expect(upload({ kind: 'files', parts: [] }, { 'idempotency-key': 'k'.repeat(256) })).toContain(
      'header Idempotency-Key: length: above maximum',
    );
    expect(upload({ kind: 'files', parts: [] }, { 'Idempotency-Key': 'a\tb' })).toContain(
      'header Idempotency-Key: alphabet: outside the pattern',
    );
    expect(upload({ kind: 'files', parts: [] })).toContain('header Idempotency-Key: presence: absent');
  });
});
