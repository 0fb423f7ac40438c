import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Contract, loadContract } from '@docproc-kit/contract/load-contract.js';
import { load } from 'js-yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { uploadLimitsOf } from '../src/upload-limits.js';

const specPath = fileURLToPath(new URL('./openapi.yaml', import.meta.url));
let contract: Contract;
beforeAll(async () => {
  contract = await loadContract(specPath);
});

type Named = { name: string; schema: object; value: unknown };

/** Every example of the contract with the schema it illustrates: media types, parameters, headers. */
function allExamples(source: Contract): Named[] {
  const found: Named[] = [];
  const fromMedia = (where: string, content: Record<string, OpenAPIV3_1.MediaTypeObject> | undefined) => {
    for (const [type, media] of Object.entries(content ?? {})) {
      for (const [name, ex] of Object.entries(media.examples ?? {})) {
        found.push({ name: `${where} ${type} example "${name}"`, schema: media.schema!, value: (ex as OpenAPIV3_1.ExampleObject).value });
      }
    }
  };
  for (const op of source.operations) {
    const where = op.operationId;
    for (const p of (op.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
      for (const [name, ex] of Object.entries(p.examples ?? {})) {
        found.push({
          name: `${where} parameter ${p.name} example "${name}"`,
          schema: p.schema!,
          value: (ex as OpenAPIV3_1.ExampleObject).value,
        });
      }
    }
    fromMedia(`${where} request`, (op.definition.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content);
    for (const [status, response] of Object.entries(op.definition.responses ?? {})) {
      const r = response as OpenAPIV3_1.ResponseObject;
      fromMedia(`${where} ${status}`, r.content);
      for (const [header, h] of Object.entries(r.headers ?? {})) {
        const ho = h as OpenAPIV3_1.HeaderObject;
        if (ho.example !== undefined) found.push({ name: `${where} ${status} header ${header}`, schema: ho.schema!, value: ho.example });
      }
    }
  }
  return found;
}

describe('the contract', () => {
  it('is valid OpenAPI 3.1 with the four operations of the service interface', () => {
    expect(contract.document.openapi).toBe('3.1.0');
    expect(contract.operations.map((op) => `${op.method.toUpperCase()} ${op.path} ${op.operationId}`)).toEqual([
      'POST /api/v1/documents/upload_files uploadDocuments',
      'GET /api/v1/documents/get_documents listDocuments',
      'GET /api/v1/documents/get_document/{document_id} getDocument',
      'POST /api/v1/documents/retry_documents/{document_id} retryDocument',
    ]);
  });

  it('names a concrete server first (generators take it as their base URL), the base_url variable second, and puts /api/v1 in the paths', () => {
    expect(contract.document.servers).toEqual([
      expect.objectContaining({ url: 'http://localhost:4010' }),
      expect.objectContaining({
        url: '{base_url}',
        variables: { base_url: expect.objectContaining({ default: 'http://localhost:4010' }) },
      }),
    ]);
    expect(Object.keys(contract.document.paths ?? {}).every((p) => p.startsWith('/api/v1/'))).toBe(true);
  });

  it('requires the x-api-key header on every operation through a global security scheme, not a parameter', () => {
    expect(contract.document.components?.securitySchemes?.ApiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(contract.document.security).toEqual([{ ApiKeyAuth: [] }]);
    for (const op of contract.operations) {
      expect(op.definition.security, op.operationId).toBeUndefined();
      const params = (op.definition.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
      expect(
        params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-api-key'),
        op.operationId,
      ).toBe(false);
    }
  });

  it('has a valid example for every parameter, request body, response body and header it shows', () => {
    const examples = allExamples(contract);
    expect(examples.length).toBeGreaterThan(20);
    const invalid = examples
      .map((ex) => ({ ex, check: contract.validate(ex.schema, ex.value) }))
      .filter(({ check }) => !check.valid)
      .map(({ ex, check }) => `${ex.name}: ${check.errors.join('; ')}`);
    expect(invalid).toEqual([]);
  });

  it.each(['uploadDocuments', 'listDocuments', 'getDocument', 'retryDocument'])(
    '%s: every response has an example, X-Request-Id, and every error is problem+json',
    (operationId) => {
      const op = contract.operation(operationId)!;
      for (const [status, response] of Object.entries(op.definition.responses ?? {})) {
        const r = response as OpenAPIV3_1.ResponseObject;
        const label = `${operationId} ${status}`;
        expect(r.headers?.['X-Request-Id'], label).toMatchObject({ required: true });
        const types = Object.keys(r.content ?? {});
        expect(types, label).toEqual([Number(status) >= 400 ? 'application/problem+json' : 'application/json']);
        expect(Object.keys(r.content![types[0]!]!.examples ?? {}).length, label).toBeGreaterThan(0);
      }
    },
  );

  it('answers validation errors with 400 only: no operation defines 422 (Prism would answer 422 otherwise)', () => {
    for (const op of contract.operations) {
      const statuses = Object.keys(op.definition.responses ?? {});
      expect(statuses, op.operationId).toContain('400');
      expect(statuses, op.operationId).not.toContain('422');
    }
  });

  it('declares the upload part the way Prism needs it: files[] array of binary with a form/explode/allowReserved encoding', async () => {
    // Read the raw YAML: the encoding object is what Prism consumes, so check it as written.
    const raw = load(await readFile(specPath, 'utf8')) as OpenAPIV3_1.Document;
    const media = (raw.paths!['/api/v1/documents/upload_files']!.post!.requestBody as OpenAPIV3_1.RequestBodyObject).content[
      'multipart/form-data'
    ]!;
    expect(media.encoding?.['files[]']).toEqual({
      contentType: 'application/pdf, image/jpeg, image/png',
      style: 'form',
      explode: true,
      allowReserved: true,
    });
    const upload = raw.components!.schemas!.UploadRequest as OpenAPIV3_1.SchemaObject;
    expect(upload.properties!['files[]']).toMatchObject({ type: 'array', minItems: 1, items: { type: 'string', format: 'binary' } });
  });

  it('writes the default upload limits once, machine-readable, and its prose says the same', async () => {
    const raw = load(await readFile(specPath, 'utf8')) as OpenAPIV3_1.Document;
    const { maxFileBytes, maxFiles } = uploadLimitsOf(raw);
    expect({ maxFileBytes, maxFiles }).toEqual({ maxFileBytes: 25 * 1024 * 1024, maxFiles: 20 });
    const prose = [raw.info.description, contract.operation('uploadDocuments')!.definition.description].join('\n');
    expect(prose).toContain(`25 MiB (${maxFileBytes} bytes) per file`);
    expect(prose).toContain(`${maxFiles} files`);
  });

  it('makes uploads idempotent with an optional Idempotency-Key and answers key conflicts with 409, not 422', () => {
    const upload = contract.operation('uploadDocuments')!.definition;
    const params = (upload.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
    expect(params).toContainEqual(expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }));
    const conflict = upload.responses!['409'] as OpenAPIV3_1.ResponseObject;
    const examples = Object.values(conflict.content!['application/problem+json']!.examples!) as OpenAPIV3_1.ExampleObject[];
    expect(examples.map((e) => (e.value as { code: string }).code).sort()).toEqual(['idempotency_key_in_use', 'idempotency_key_reused']);
  });

  it('has no schema a client generator declares itself (ContentType, HttpClient, RequestParams...)', () => {
    const reserved = [
      'ContentType',
      'HttpClient',
      'HttpResponse',
      'RequestParams',
      'FullRequestParams',
      'ApiConfig',
      'QueryParamsType',
      'Options',
      'Client',
      'Config',
    ];
    expect(Object.keys(contract.document.components!.schemas!).filter((name) => reserved.includes(name))).toEqual([]);
  });

  it('lists every problem code the service uses, so clients can switch on them', () => {
    const codes = (contract.document.components!.schemas!.ErrorCode as OpenAPIV3_1.SchemaObject).enum;
    expect(codes).toEqual(
      expect.arrayContaining([
        'unauthorized',
        'invalid_request',
        'not_found',
        'document_busy',
        'file_too_large',
        'too_many_files',
        'unsupported_media_type',
        'method_not_allowed',
        'idempotency_key_reused',
        'idempotency_key_in_use',
        'internal_error',
      ]),
    );
  });
});
