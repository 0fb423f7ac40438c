import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import { buildMultipart } from '../transport/multipart.js';
import { boundaryParameter, MULTIPART_FORMS, sentWire } from './multipart-forms.js';
import { partitionCatalog } from './partition-catalog.js';
import { sentParts } from './upload-partitions.js';

const file = { field: 'files[]', filename: 'conformance-t-1.pdf', data: new TextEncoder().encode('%PDF-1.7\n%%EOF\n') };
const wireIds = (contentType: string, data: Uint8Array) =>
  MULTIPART_FORMS.filter((f) => f.holds(sentWire(contentType, data))).map((f) => f.id);
const catalog = partitionCatalog(await loadContract(), { token: 'tok' });

describe('the wire forms of an upload', () => {
  it.each(MULTIPART_FORMS.map((f) => [f.id, f] as const))('writes "%s" so that it is classified as that form alone', (id, form) => {
    const { body, contentType } = form.write(file);
    expect(wireIds(contentType, body)).toEqual([id]);
  });

  it('classifies a body as a browser writes it as none of them', () => {
    const { body, contentType } = buildMultipart([{ ...file, contentType: 'application/pdf' }]);
    expect(wireIds(contentType, body)).toEqual([]);
  });

  it.each(MULTIPART_FORMS.filter((f) => f.reading === 'accepted').map((f) => [f.id, f] as const))(
    'carries the name and bytes of its file in the well-formed "%s"',
    (_, form) => {
      const { body, contentType, filename } = form.write(file);
      const parts = sentParts({ kind: 'raw', contentType, data: body });
      expect(parts?.map((p) => [p.field, p.filename, p.data.length])).toEqual([['files[]', filename ?? file.filename, file.data.length]]);
    },
  );

  it('puts every form in the upload partitions of the catalogue, and a sent one in its own', () => {
    const upload = catalog.operations.find((o) => o.operation === 'uploadDocuments')!.inputs.find((i) => i.input === 'upload')!;
    expect(MULTIPART_FORMS.map((f) => f.id).filter((id) => !upload.partitions.some((p) => p.id === id))).toEqual([]);
    const [form] = MULTIPART_FORMS;
    const { body, contentType } = form!.write(file);
    const sent = catalog.classify('uploadDocuments', {
      method: 'POST',
      url: 'http://127.0.0.1:4010/api/v1/documents/upload_files',
      key: 'primary',
      headers: {},
      body: { kind: 'raw', contentType, data: body },
    });
    expect(sent).toContain(`upload: ${form!.id}`);
  });

  it.each([
    ['multipart/form-data; boundary=abc', 'abc'],
    ['multipart/form-data; boundary="a b:c"', 'a b:c'],
    ['Multipart/Form-Data; BOUNDARY = "x"', 'x'],
    ['multipart/form-data; charset=utf-8; boundary=z; x=y', 'z'],
    ['multipart/form-data', undefined],
  ])('reads the boundary of %j', (contentType, boundary) => {
    expect(boundaryParameter(contentType)).toBe(boundary);
  });
});
