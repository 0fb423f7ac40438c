// The framework's own ceiling: a bare Express 5 app that answers each benchmarked path with a
// fixed body through res.json (a page of 20 documents, one document, a 401 problem), as the
// simplest Express handler would. Our server is measured against it (target >= 0.8x): the
// difference is what our routing, auth, validation, store and logging cost.
import express from 'express';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const now = new Date().toISOString();
const page = {
  documents: Array.from({ length: 20 }, (_, i) => ({
    document_id: 10_000 - i,
    filename: `document-${10_000 - i}.pdf`,
    content_type: 'application/pdf',
    size_bytes: 48_213,
    status: 'completed',
    attempts: 1,
    error: null,
    created_at: now,
    updated_at: now,
    processed_at: now,
  })),
  pagination: { page: 1, limit: 20, total: 10_000, total_pages: 500 },
};

const one = { ...page.documents[0], content: 'Seeded document text. '.repeat(40) };
const unauthorized = {
  type: 'about:blank',
  title: 'Unauthorized',
  status: 401,
  detail: 'Send your API key in the x-api-key header.',
  code: 'unauthorized',
};

const app = express();
app.get('/api/v1/documents/get_documents', (req, res) => {
  if (!req.get('x-api-key')) return res.status(401).type('application/problem+json').send(JSON.stringify(unauthorized));
  res.json(page);
});
app.get('/api/v1/documents/get_document/:id', (_req, res) => {
  res.json(one);
});
app.listen(port, '127.0.0.1');
