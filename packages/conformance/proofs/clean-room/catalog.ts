// The in-memory document store, per tenant, with listing and search.
export type Status = 'processing' | 'completed' | 'failed';

export interface StoredDocument {
  document_id: number;
  tenant: string;
  filename: string;
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png';
  size_bytes: number;
  status: Status;
  attempts: number;
  error: { code: 'unreadable_document' | 'processing_error'; message: string } | null;
  content: string | null;
  created_at: string;
  updated_at: string;
  processed_at: string | null;
  bytes: Buffer;
}

/**
 * Full case folding (CaseFolding.txt C and F), close enough: lower, upper, lower maps ẞ and ß to ss; İ folds to
 * i by the contract. Dotless ı has no C/F folding, so it is kept out of the round trip (its upper case is I).
 * toLowerCase writes Σ as final ς by context; folding maps both to σ.
 */
export function fold(text: string): string {
  return text
    .replace(/\u0130/g, 'i')
    .split('\u0131')
    .map((part) => part.toLowerCase().toUpperCase().toLowerCase())
    .join('\u0131')
    .replace(/\u03c2/g, '\u03c3');
}

export function createCatalog() {
  const documents = new Map<number, StoredDocument>();
  let nextId = 1;

  return {
    add(doc: Omit<StoredDocument, 'document_id'>): StoredDocument {
      const stored = { ...doc, document_id: nextId++ };
      documents.set(stored.document_id, stored);
      return stored;
    },
    find(tenant: string, id: number): StoredDocument | undefined {
      const doc = documents.get(id);
      return doc && doc.tenant === tenant ? doc : undefined;
    },
    list(tenant: string, opts: { page: number; limit: number; status?: Status; search?: string }) {
      const term = opts.search === undefined ? undefined : fold(opts.search);
      const matching = [...documents.values()]
        .filter((d) => d.tenant === tenant)
        .filter((d) => opts.status === undefined || d.status === opts.status)
        .filter(
          (d) =>
            term === undefined ||
            fold(d.filename).includes(term) ||
            (d.status === 'completed' && d.content !== null && fold(d.content).includes(term)),
        )
        .sort((a, b) => (a.created_at === b.created_at ? b.document_id - a.document_id : a.created_at < b.created_at ? 1 : -1));
      const start = (opts.page - 1) * opts.limit;
      const items = start >= matching.length ? [] : matching.slice(start, start + opts.limit);
      return { items, total: matching.length, totalPages: Math.ceil(matching.length / opts.limit) };
    },
  };
}

export type Catalog = ReturnType<typeof createCatalog>;

export function fullView(doc: StoredDocument) {
  const { bytes: _bytes, tenant: _tenant, ...rest } = doc;
  return rest;
}

export function summaryView(doc: StoredDocument) {
  const { content: _content, ...rest } = fullView(doc);
  return rest;
}
