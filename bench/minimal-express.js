// The framework's own ceiling: a bare Express 5 app that answers the list path with a fixed,
// pre-serialized page of 20 documents. Our server is measured against it (target >= 0.8x).
import express from 'express';

const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
const now = new Date().toISOString();
const page = JSON.stringify({
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
});

const app = express();
app.get('/api/v1/documents/get_documents', (_req, res) => {
  res.type('application/json').send(page);
});
app.listen(port, '127.0.0.1');
