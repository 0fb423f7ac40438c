/**
 * Real edits of the bundled contract, each classified: the edit applied to a fresh copy (BASE, when given, is an
 * edited copy too), and the rules it must trip and the worst severity it must get. Every rule of DIFF_RULES is
 * tripped by one edit at least.
 */
import { at, bundledDocument, edited } from '@docproc-kit/test-support/contract-edits.js';
import { describe, expect, it } from 'vitest';
import { DIFF_RULES, diffContracts, type Severity } from './index.js';

// biome-ignore lint/suspicious/noExplicitAny: the edits reach into a parsed YAML document by known keys.
type Doc = Record<string, any>;
type Edit = (d: Doc) => unknown;

const UPLOAD = '/api/v1/documents/upload_files';
const LIST = '/api/v1/documents/get_documents';
const GET = '/api/v1/documents/get_document/{document_id}';
const RETRY = '/api/v1/documents/retry_documents/{document_id}';

const schemas = (d: Doc) => at(d, 'components/schemas') as Doc;
const params = (d: Doc) => at(d, 'components/parameters') as Doc;
const headers = (d: Doc) => at(d, 'components/headers') as Doc;
const upload = (d: Doc) => d.paths[UPLOAD].post;
const multipart = (d: Doc) => upload(d).requestBody.content['multipart/form-data'];
const filesPart = (d: Doc) => multipart(d).encoding['files[]'];
const withRequired = (schema: Doc, name: string, required: boolean) => {
  schema.required = [...(schema.required ?? []).filter((n: string) => n !== name), ...(required ? [name] : [])];
};
/** A JSON body on retries (the contract has none), for the rules of JSON request bodies. */
const retryBody =
  (schema: Doc, required = false): Edit =>
  (d) => {
    d.paths[RETRY].post.requestBody = { required, content: { 'application/json': { schema } } };
  };
const reason = { type: 'string', maxLength: 200 };
const moveBasePath = (to: string) => (d: Doc) => {
  d.paths = Object.fromEntries(Object.entries(d.paths).map(([p, v]) => [p.replace('/api/v1', to), v]));
};
const everyResponse = (d: Doc, fn: (response: Doc) => void) => {
  for (const r of Object.values(d.components.responses) as Doc[]) fn(r);
  for (const item of Object.values(d.paths) as Doc[])
    for (const op of Object.values(item) as Doc[]) for (const r of Object.values(op.responses) as Doc[]) if (!r.$ref) fn(r);
};

interface Case {
  edit: string;
  base?: Edit;
  head: Edit;
  worst: Severity | 'nothing';
  rules: string[];
}

// prettier-ignore
const CASES: Case[] = [
  // Paths, methods, the base path
  { edit: 'an operation removed', head: (d) => delete d.paths[GET], worst: 'breaking', rules: ['api-operation-removed'] },
  {
    edit: 'a new operation',
    head: (d) => {
      d.paths['/api/v1/documents/delete_document/{document_id}'] = {
        delete: {
          operationId: 'deleteDocument',
          parameters: [{ $ref: '#/components/parameters/DocumentId' }],
          responses: { '204': { description: 'Deleted.' } },
        },
      };
    },
    worst: 'compatible',
    rules: ['api-operation-added'],
  },
  { edit: 'the base path moved to /api/v2', head: moveBasePath('/api/v2'), worst: 'breaking', rules: ['api-base-path-changed'] },
  {
    edit: 'the base path written in `servers` instead of the paths',
    head: (d) => {
      for (const s of d.servers) s.url += '/api/v1';
      moveBasePath('')(d);
    },
    worst: 'nothing',
    rules: [],
  },
  {
    edit: 'an operation id renamed',
    head: (d) => {
      d.paths[LIST].get.operationId = 'getDocuments';
    },
    worst: 'compatible',
    rules: ['api-operation-id-changed'],
  },
  {
    edit: 'a path parameter renamed',
    head: (d) => {
      const item = d.paths[GET];
      delete d.paths[GET];
      d.paths['/api/v1/documents/get_document/{id}'] = item;
      item.get.parameters = [{ ...params(d).DocumentId, name: 'id' }];
    },
    worst: 'nothing',
    rules: [],
  },
  // Security
  {
    edit: 'the API key sent in `authorization`',
    head: (d) => {
      d.components.securitySchemes.ApiKeyAuth.name = 'authorization';
    },
    worst: 'breaking',
    rules: ['api-security-requirement-changed'],
  },
  {
    edit: 'anonymous calls accepted too',
    head: (d) => {
      d.security.push({});
    },
    worst: 'compatible',
    rules: ['api-security-alternative-added'],
  },
  {
    edit: 'the security scheme renamed',
    head: (d) => {
      const s = d.components.securitySchemes;
      s.Key = s.ApiKeyAuth;
      delete s.ApiKeyAuth;
      d.security = [{ Key: [] }];
    },
    worst: 'nothing',
    rules: [],
  },
  // Parameters
  {
    edit: '`search` required',
    head: (d) => {
      params(d).Search.required = true;
    },
    worst: 'breaking',
    rules: ['request-parameter-became-required'],
  },
  {
    edit: '`search` optional again',
    base: (d) => {
      params(d).Search.required = true;
    },
    head: () => {},
    worst: 'compatible',
    rules: ['request-parameter-became-optional'],
  },
  {
    edit: 'a new required query parameter',
    head: (d) => {
      d.paths[LIST].get.parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } });
    },
    worst: 'breaking',
    rules: ['new-required-request-parameter'],
  },
  {
    edit: 'a new optional query parameter',
    head: (d) => {
      d.paths[LIST].get.parameters.push({ name: 'sort', in: 'query', schema: { type: 'string', enum: ['newest', 'oldest'] } });
    },
    worst: 'compatible',
    rules: ['new-optional-request-parameter'],
  },
  {
    edit: '`search` no longer read',
    head: (d) => {
      d.paths[LIST].get.parameters.pop();
    },
    worst: 'warning',
    rules: ['request-parameter-removed'],
  },
  // Request body
  {
    edit: 'the upload body optional',
    head: (d) => {
      upload(d).requestBody.required = false;
    },
    worst: 'compatible',
    rules: ['request-body-became-optional'],
  },
  {
    edit: 'the upload body required again',
    base: (d) => {
      upload(d).requestBody.required = false;
    },
    head: () => {},
    worst: 'breaking',
    rules: ['request-body-became-required'],
  },
  {
    edit: 'a required body on an operation that had none',
    base: (d) => {
      delete upload(d).requestBody;
    },
    head: () => {},
    worst: 'breaking',
    rules: ['new-required-request-body'],
  },
  {
    edit: 'an optional body on retries',
    head: retryBody({ type: 'object', properties: { reason } }),
    worst: 'compatible',
    rules: ['new-optional-request-body'],
  },
  {
    edit: 'the upload body no longer read',
    head: (d) => {
      delete upload(d).requestBody;
    },
    worst: 'warning',
    rules: ['request-body-removed'],
  },
  {
    edit: 'uploads as multipart/mixed',
    head: (d) => {
      const c = upload(d).requestBody.content;
      c['multipart/mixed'] = c['multipart/form-data'];
      delete c['multipart/form-data'];
    },
    worst: 'breaking',
    rules: ['request-body-media-type-removed', 'request-body-media-type-added'],
  },
  // Multipart body
  {
    edit: 'the file field renamed `file`',
    head: (d) => {
      const s = schemas(d).UploadRequest;
      s.properties = { file: s.properties['files[]'] };
      s.required = ['file'];
      multipart(d).encoding = { file: filesPart(d) };
    },
    worst: 'breaking',
    rules: ['request-multipart-field-renamed'],
  },
  {
    edit: 'a `note` part no longer taken',
    base: (d) => {
      schemas(d).UploadRequest.properties.note = { type: 'string' };
    },
    head: () => {},
    worst: 'breaking',
    rules: ['request-multipart-field-removed'],
  },
  {
    edit: 'an optional `note` part',
    head: (d) => {
      schemas(d).UploadRequest.properties.note = { type: 'string' };
    },
    worst: 'compatible',
    rules: ['new-optional-multipart-field'],
  },
  {
    edit: 'a required `folder` part',
    head: (d) => {
      const s = schemas(d).UploadRequest;
      s.properties.folder = { type: 'string' };
      withRequired(s, 'folder', true);
    },
    worst: 'breaking',
    rules: ['new-required-multipart-field'],
  },
  {
    edit: 'the file part required again',
    base: (d) => {
      withRequired(schemas(d).UploadRequest, 'files[]', false);
    },
    head: () => {},
    worst: 'breaking',
    rules: ['request-multipart-field-became-required'],
  },
  {
    edit: 'the file part optional',
    head: (d) => {
      withRequired(schemas(d).UploadRequest, 'files[]', false);
    },
    worst: 'compatible',
    rules: ['request-multipart-field-became-optional'],
  },
  {
    edit: 'PNG no longer uploaded',
    head: (d) => {
      filesPart(d).contentType = 'application/pdf, image/jpeg';
    },
    worst: 'breaking',
    rules: ['request-multipart-part-media-type-removed'],
  },
  {
    edit: 'TIFF uploaded too',
    head: (d) => {
      filesPart(d).contentType += ', image/tiff';
    },
    worst: 'compatible',
    rules: ['request-multipart-part-media-type-added'],
  },
  {
    edit: 'at least two files per upload',
    head: (d) => {
      schemas(d).UploadRequest.properties['files[]'].minItems = 2;
    },
    worst: 'breaking',
    rules: ['request-min-increased'],
  },
  // x- limits
  {
    edit: 'at most 10 files per upload',
    head: (d) => {
      upload(d)['x-default-limits'].max_files = 10;
    },
    worst: 'breaking',
    rules: ['x-limit-decreased'],
  },
  {
    edit: 'up to 50 files per upload',
    head: (d) => {
      upload(d)['x-default-limits'].max_files = 50;
    },
    worst: 'compatible',
    rules: ['x-limit-increased'],
  },
  {
    edit: 'files of 100 MiB',
    head: (d) => {
      upload(d)['x-default-limits'].max_file_bytes = 104857600;
    },
    worst: 'compatible',
    rules: ['x-limit-increased'],
  },
  {
    edit: 'a minimum file size raised',
    base: (d) => {
      upload(d)['x-default-limits'].min_file_bytes = 1;
    },
    head: (d) => {
      upload(d)['x-default-limits'].min_file_bytes = 100;
    },
    worst: 'breaking',
    rules: ['x-minimum-increased'],
  },
  {
    edit: 'a minimum file size dropped',
    base: (d) => {
      upload(d)['x-default-limits'].min_file_bytes = 100;
    },
    head: () => {},
    worst: 'compatible',
    rules: ['x-minimum-decreased'],
  },
  {
    edit: 'an extension changed',
    base: (d) => {
      d['x-audience'] = 'internal';
    },
    head: (d) => {
      d['x-audience'] = 'public';
    },
    worst: 'warning',
    rules: ['x-extension-changed'],
  },
  // Responses
  {
    edit: 'an upload answered 201 instead of 202',
    head: (d) => {
      const r = upload(d).responses;
      r['201'] = r['202'];
      delete r['202'];
    },
    worst: 'breaking',
    rules: ['response-success-status-removed', 'response-success-status-added'],
  },
  {
    edit: 'retries no longer answered 409',
    head: (d) => {
      delete d.paths[RETRY].post.responses['409'];
    },
    worst: 'warning',
    rules: ['response-non-success-status-removed'],
  },
  {
    edit: 'a new 422 answer to uploads',
    head: (d) => {
      upload(d).responses['422'] = { $ref: '#/components/responses/BadRequest' };
    },
    worst: 'warning',
    rules: ['response-non-success-status-added'],
  },
  {
    edit: 'a 404 folded into a 4XX range (which documents every 4xx)',
    head: (d) => {
      const r = d.paths[GET].get.responses;
      r['4XX'] = r['404'];
      delete r['404'];
    },
    worst: 'warning',
    rules: ['response-non-success-status-added'],
  },
  {
    edit: 'a document read as another media type',
    head: (d) => {
      const c = d.paths[GET].get.responses['200'].content;
      c['application/vnd.docproc+json'] = c['application/json'];
      delete c['application/json'];
    },
    worst: 'breaking',
    rules: ['response-media-type-removed', 'response-media-type-added'],
  },
  {
    edit: '`X-Request-Id` no longer sent',
    head: (d) => {
      everyResponse(d, (r) => {
        if (r.headers) delete r.headers['X-Request-Id'];
      });
    },
    worst: 'breaking',
    rules: ['response-required-header-removed'],
  },
  {
    edit: '`X-Request-Id` sent at times only',
    head: (d) => {
      headers(d).XRequestId.required = false;
    },
    worst: 'breaking',
    rules: ['response-header-became-optional'],
  },
  {
    edit: '`Idempotent-Replayed` no longer sent',
    head: (d) => {
      delete upload(d).responses['202'].headers['Idempotent-Replayed'];
    },
    worst: 'warning',
    rules: ['response-optional-header-removed'],
  },
  {
    edit: '`Idempotent-Replayed` always sent',
    head: (d) => {
      headers(d).IdempotentReplayed.required = true;
    },
    worst: 'compatible',
    rules: ['response-header-became-required'],
  },
  {
    edit: 'a new required response header',
    head: (d) => {
      d.paths[LIST].get.responses['200'].headers['X-Total'] = { required: true, schema: { type: 'string' } };
    },
    worst: 'compatible',
    rules: ['new-required-response-header'],
  },
  {
    edit: 'a new optional response header',
    head: (d) => {
      d.paths[LIST].get.responses['200'].headers['X-Trace'] = { schema: { type: 'string' } };
    },
    worst: 'compatible',
    rules: ['new-optional-response-header'],
  },
  {
    edit: 'header names written in another case',
    head: (d) => {
      const h = d.paths[LIST].get.responses['200'].headers;
      h['x-request-id'] = h['X-Request-Id'];
      delete h['X-Request-Id'];
    },
    worst: 'nothing',
    rules: [],
  },
  // Schemas: types
  {
    edit: '`search` an integer',
    head: (d) => {
      params(d).Search.schema.type = 'integer';
    },
    worst: 'breaking',
    rules: ['request-type-narrowed'],
  },
  {
    edit: '`limit` any number',
    head: (d) => {
      params(d).Limit.schema.type = 'number';
    },
    worst: 'compatible',
    rules: ['request-type-widened'],
  },
  {
    edit: '`attempts` may be null',
    head: (d) => {
      schemas(d).DocumentFields.properties.attempts.type = ['integer', 'null'];
    },
    worst: 'breaking',
    rules: ['response-type-widened'],
  },
  {
    edit: '`processed_at` never null',
    head: (d) => {
      schemas(d).DocumentFields.properties.processed_at.type = 'string';
    },
    worst: 'compatible',
    rules: ['response-type-narrowed'],
  },
  // Schemas: enums
  {
    edit: 'a new status `cancelled`',
    head: (d) => {
      schemas(d).DocumentStatus.enum.push('cancelled');
    },
    worst: 'warning',
    rules: ['request-enum-value-added', 'response-enum-value-added'],
  },
  {
    edit: 'the status `failed` gone',
    head: (d) => {
      schemas(d).DocumentStatus.enum.pop();
    },
    worst: 'breaking',
    rules: ['request-enum-value-removed', 'response-enum-value-removed'],
  },
  {
    edit: '`search` one of two words',
    head: (d) => {
      params(d).Search.schema.enum = ['invoice', 'receipt'];
    },
    worst: 'breaking',
    rules: ['request-enum-set'],
  },
  {
    edit: '`status_filter` any string',
    head: (d) => {
      params(d).StatusFilter.schema = { type: 'string' };
    },
    worst: 'compatible',
    rules: ['request-enum-unset'],
  },
  {
    edit: '`processing_error` no longer answered',
    head: (d) => {
      schemas(d).DocumentError.properties.code.enum = ['unreadable_document'];
    },
    worst: 'compatible',
    rules: ['response-enum-value-removed'],
  },
  {
    edit: 'error codes any string',
    head: (d) => {
      delete schemas(d).DocumentError.properties.code.enum;
    },
    worst: 'warning',
    rules: ['response-enum-unset'],
  },
  {
    edit: 'error messages one of two',
    head: (d) => {
      schemas(d).DocumentError.properties.message.enum = ['unreadable', 'failed'];
    },
    worst: 'compatible',
    rules: ['response-enum-set'],
  },
  // Schemas: bounds
  {
    edit: '`limit` at most 50',
    head: (d) => {
      params(d).Limit.schema.maximum = 50;
    },
    worst: 'breaking',
    rules: ['request-max-decreased'],
  },
  {
    edit: '`limit` up to 200',
    head: (d) => {
      params(d).Limit.schema.maximum = 200;
    },
    worst: 'compatible',
    rules: ['request-max-increased'],
  },
  {
    edit: 'longer idempotency keys',
    head: (d) => {
      params(d).IdempotencyKey.schema.maxLength = 512;
    },
    worst: 'compatible',
    rules: ['request-max-increased'],
  },
  {
    edit: '`search` of 3 characters at least',
    head: (d) => {
      params(d).Search.schema.minLength = 3;
    },
    worst: 'breaking',
    rules: ['request-min-increased'],
  },
  {
    edit: '`page` from 0',
    head: (d) => {
      params(d).Page.schema.minimum = 0;
    },
    worst: 'compatible',
    rules: ['request-min-decreased'],
  },
  {
    edit: 'pages of 200 documents answered',
    head: (d) => {
      schemas(d).DocumentList.properties.documents.maxItems = 200;
    },
    worst: 'warning',
    rules: ['response-max-increased'],
  },
  {
    edit: 'filenames of 200 characters at most answered',
    head: (d) => {
      schemas(d).DocumentFields.properties.filename.maxLength = 200;
    },
    worst: 'compatible',
    rules: ['response-max-decreased'],
  },
  {
    edit: 'empty files answered',
    head: (d) => {
      schemas(d).DocumentFields.properties.size_bytes.minimum = 0;
    },
    worst: 'warning',
    rules: ['response-min-decreased'],
  },
  {
    edit: 'error messages of 2 characters at least',
    head: (d) => {
      schemas(d).DocumentError.properties.message.minLength = 2;
    },
    worst: 'compatible',
    rules: ['response-min-increased'],
  },
  // Schemas: formats, patterns, defaults
  {
    edit: '`search` an email address',
    head: (d) => {
      params(d).Search.schema.format = 'email';
    },
    worst: 'breaking',
    rules: ['request-format-changed'],
  },
  {
    edit: '`document_id` without `int64`',
    head: (d) => {
      delete params(d).DocumentId.schema.format;
    },
    worst: 'compatible',
    rules: ['request-format-removed'],
  },
  {
    edit: '`created_at` no longer a date-time',
    head: (d) => {
      delete schemas(d).DocumentFields.properties.created_at.format;
    },
    worst: 'warning',
    rules: ['response-format-changed'],
  },
  {
    edit: '`instance` a URI reference',
    head: (d) => {
      schemas(d).Problem.properties.instance.format = 'uri-reference';
    },
    worst: 'compatible',
    rules: ['response-format-added'],
  },
  {
    edit: '`search` of letters only',
    head: (d) => {
      params(d).Search.schema.pattern = '^[a-z]+$';
    },
    worst: 'breaking',
    rules: ['request-pattern-added'],
  },
  {
    edit: 'idempotency keys without spaces',
    head: (d) => {
      params(d).IdempotencyKey.schema.pattern = '^[\\x21-\\x7E]+$';
    },
    worst: 'warning',
    rules: ['request-pattern-changed'],
  },
  {
    edit: 'idempotency keys of any characters',
    head: (d) => {
      delete params(d).IdempotencyKey.schema.pattern;
    },
    worst: 'compatible',
    rules: ['request-pattern-removed'],
  },
  {
    edit: '`Retry-After` of any digits',
    head: (d) => {
      headers(d).RetryAfter.schema.pattern = '^[0-9]+$';
    },
    worst: 'warning',
    rules: ['response-pattern-changed'],
  },
  {
    edit: '`Allow` a list of methods',
    head: (d) => {
      headers(d).Allow.schema.pattern = '^[A-Z, ]+$';
    },
    worst: 'compatible',
    rules: ['response-pattern-added'],
  },
  {
    edit: '`limit` 50 by default',
    head: (d) => {
      params(d).Limit.schema.default = 50;
    },
    worst: 'warning',
    rules: ['request-default-changed'],
  },
  // Schemas: response properties
  {
    edit: '`filename` no longer in documents',
    head: (d) => {
      const s = schemas(d).DocumentFields;
      delete s.properties.filename;
      withRequired(s, 'filename', false);
    },
    worst: 'breaking',
    rules: ['response-required-property-removed'],
  },
  {
    edit: '`instance` no longer in problems',
    head: (d) => {
      delete schemas(d).Problem.properties.instance;
    },
    worst: 'warning',
    rules: ['response-optional-property-removed'],
  },
  {
    edit: '`attempts` made optional',
    head: (d) => {
      withRequired(schemas(d).DocumentFields, 'attempts', false);
    },
    worst: 'breaking',
    rules: ['response-property-became-optional'],
  },
  {
    edit: '`instance` always in problems',
    head: (d) => {
      withRequired(schemas(d).Problem, 'instance', true);
    },
    worst: 'compatible',
    rules: ['response-property-became-required'],
  },
  {
    edit: '`size_bytes` renamed `file_size`',
    head: (d) => {
      const s = schemas(d).DocumentFields;
      s.properties.file_size = s.properties.size_bytes;
      delete s.properties.size_bytes;
      withRequired(s, 'size_bytes', false);
      withRequired(s, 'file_size', true);
    },
    worst: 'breaking',
    rules: ['response-property-renamed'],
  },
  {
    edit: 'a new optional property in documents',
    head: (d) => {
      schemas(d).DocumentFields.properties.pages = { type: 'integer', minimum: 1 };
    },
    worst: 'compatible',
    rules: ['new-optional-response-property'],
  },
  {
    edit: 'a new required property in documents',
    head: (d) => {
      const s = schemas(d).DocumentFields;
      s.properties.pages = { type: 'integer', minimum: 1 };
      withRequired(s, 'pages', true);
    },
    worst: 'compatible',
    rules: ['new-required-response-property'],
  },
  {
    edit: 'two problem alternatives become three',
    base: (d) => {
      schemas(d).Problem.properties.instance = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    },
    head: (d) => {
      schemas(d).Problem.properties.instance = { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }] };
    },
    worst: 'breaking',
    rules: ['response-one-of-branch-added'],
  },
  {
    edit: 'three problem alternatives become two',
    base: (d) => {
      schemas(d).Problem.properties.instance = { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }] };
    },
    head: (d) => {
      schemas(d).Problem.properties.instance = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
    },
    worst: 'compatible',
    rules: ['response-one-of-branch-removed'],
  },
  // Schemas: request properties (a JSON body on retries)
  {
    edit: 'a required `reason` property',
    base: retryBody({ type: 'object', properties: {} }),
    head: retryBody({ type: 'object', required: ['reason'], properties: { reason } }),
    worst: 'breaking',
    rules: ['new-required-request-property'],
  },
  {
    edit: 'an optional `reason` property',
    base: retryBody({ type: 'object', properties: {} }),
    head: retryBody({ type: 'object', properties: { reason } }),
    worst: 'compatible',
    rules: ['new-optional-request-property'],
  },
  {
    edit: 'the `reason` property no longer read',
    base: retryBody({ type: 'object', properties: { reason } }),
    head: retryBody({ type: 'object', properties: {} }),
    worst: 'warning',
    rules: ['request-property-removed'],
  },
  {
    edit: '`reason` required',
    base: retryBody({ type: 'object', properties: { reason } }),
    head: retryBody({ type: 'object', required: ['reason'], properties: { reason } }),
    worst: 'breaking',
    rules: ['request-property-became-required'],
  },
  {
    edit: '`reason` optional',
    base: retryBody({ type: 'object', required: ['reason'], properties: { reason } }),
    head: retryBody({ type: 'object', properties: { reason } }),
    worst: 'compatible',
    rules: ['request-property-became-optional'],
  },
  {
    edit: '`reason` renamed `why`',
    base: retryBody({ type: 'object', required: ['reason'], properties: { reason } }),
    head: retryBody({ type: 'object', required: ['why'], properties: { why: reason } }),
    worst: 'breaking',
    rules: ['request-property-renamed'],
  },
  {
    edit: 'a `reason` of two alternatives, one gone',
    base: retryBody({ type: 'object', properties: { reason: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } }),
    head: retryBody({ type: 'object', properties: { reason: { oneOf: [{ type: 'string' }] } } }),
    worst: 'breaking',
    rules: ['request-one-of-branch-removed'],
  },
  {
    edit: 'a `reason` of one alternative more',
    base: retryBody({ type: 'object', properties: { reason: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } }),
    head: retryBody({ type: 'object', properties: { reason: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }] } } }),
    worst: 'compatible',
    rules: ['request-one-of-branch-added'],
  },
  // Refactors that change nothing
  {
    edit: 'a schema renamed',
    head: (d) => {
      const s = schemas(d);
      s.Status = s.DocumentStatus;
      delete s.DocumentStatus;
      const walk = (n: unknown) => {
        if (n && typeof n === 'object')
          for (const [k, v] of Object.entries(n)) {
            if (k === '$ref' && v === '#/components/schemas/DocumentStatus') (n as Doc)[k] = '#/components/schemas/Status';
            else walk(v);
          }
      };
      walk(d);
    },
    worst: 'nothing',
    rules: [],
  },
  {
    edit: 'a parameter inlined instead of referred to',
    head: (d) => {
      d.paths[LIST].get.parameters[1] = structuredClone(params(d).Limit);
    },
    worst: 'nothing',
    rules: [],
  },
  {
    edit: 'a description reworded',
    head: (d) => {
      params(d).Limit.description = 'Documents per page, 1 to 100. Defaults to 20. Larger values are refused with a `400`.';
    },
    worst: 'nothing',
    rules: [],
  },
];

const worstOf = (severities: Severity[]): Case['worst'] =>
  severities.includes('breaking')
    ? 'breaking'
    : severities.includes('warning')
      ? 'warning'
      : severities.length > 0
        ? 'compatible'
        : 'nothing';

describe('edits of the bundled contract', () => {
  it.each(CASES)('$edit: $worst', ({ base, head, worst, rules }) => {
    const diff = diffContracts(base ? edited(base) : bundledDocument(), edited(head));
    expect([...new Set(diff.changes.map((c) => c.rule))].sort()).toEqual([...rules].sort());
    expect(worstOf(diff.changes.map((c) => c.severity))).toBe(worst);
  });

  it('trip every rule of the diff', () => {
    const tripped = new Set(CASES.flatMap((c) => c.rules));
    expect(DIFF_RULES.map((r) => r.id).filter((id) => !tripped.has(id))).toEqual([]);
  });

  it('are about half breaking', () => {
    const breaking = CASES.filter((c) => c.worst === 'breaking').length;
    expect(breaking / CASES.length).toBeGreaterThan(0.3);
    expect(breaking / CASES.length).toBeLessThan(0.6);
  });
});
