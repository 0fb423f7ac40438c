import { loadContract } from '@docproc-kit/contract/load-contract.js';
import { describe, expect, it } from 'vitest';
import { forbiddenProperties, undocumentedProperties } from './schema-walk.js';

const contract = await loadContract();
const schemas = contract.document.components!.schemas!;
const summary = {
  document_id: 1,
  filename: 'a.pdf',
  content_type: 'application/pdf',
  size_bytes: 3,
  status: 'failed',
  attempts: 1,
  error: { code: 'unreadable_document', message: 'x' },
  created_at: 't',
  updated_at: 't',
  processed_at: 't',
};
const doc = { ...summary, content: null };

describe('undocumentedProperties', () => {
  it.each([
    { name: 'a document exactly as documented', schema: 'Document', value: doc, extra: [] },
    { name: 'a top-level extra property', schema: 'Document', value: { ...doc, owner: 'x' }, extra: ['/owner'] },
    {
      name: 'an extra property inside a oneOf branch (error)',
      schema: 'Document',
      value: { ...doc, error: { ...doc.error, trace: 'x' } },
      extra: ['/error/trace'],
    },
    {
      name: 'extra properties inside array items',
      schema: 'DocumentList',
      value: { documents: [{ ...summary, secret: 1 }], pagination: { page: 1, limit: 1, total: 1, total_pages: 1, next: 2 } },
      extra: ['/documents/0/secret', '/pagination/next'],
    },
    { name: 'content in a list summary, which forbids it (not merely leaves it out)', schema: 'DocumentSummary', value: doc, extra: [] },
  ])('finds $extra in $name', ({ schema, value, extra }) => {
    expect(undocumentedProperties(schemas[schema], value)).toEqual(extra);
  });
});

describe('forbiddenProperties', () => {
  it.each([
    { name: 'a list summary with content', schema: 'DocumentSummary', value: doc, forbidden: ['/content'] },
    { name: 'a list summary without content', schema: 'DocumentSummary', value: summary, forbidden: [] },
    { name: 'a full document with content', schema: 'Document', value: doc, forbidden: [] },
    {
      name: 'list items with content',
      schema: 'DocumentList',
      value: { documents: [summary, doc], pagination: { page: 1, limit: 1, total: 2, total_pages: 2 } },
      forbidden: ['/documents/1/content'],
    },
  ])('finds $forbidden in $name', ({ schema, value, forbidden }) => {
    expect(forbiddenProperties(schemas[schema], value)).toEqual(forbidden);
  });
});
