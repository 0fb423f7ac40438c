import { invalidRequest } from '../http/problem.js';
import { isObject } from './field-checks.js';

/** One tenant's part of a seed file: the key it is for (absent: the first key) and its seed body's `documents`. */
export interface SeedFileEntry {
  apiKey?: string;
  documents: unknown;
}

/**
 * The entries of a seed file's contents: one seed body (`{"documents": [...]}`), the same with an
 * `"api_key"`, or an array of such objects (several tenants, or one tenant's documents over several
 * bodies, as a recording of more than a seed request's bound is written). The documents themselves are
 * left to `parseSeeds`. Browser-safe: `docproc serve --seed-file` and the in-process mock's `seed` read alike.
 * @example seedFileEntries(JSON.parse(text)).map((entry) => parseSeeds({ documents: entry.documents }));
 */
export function seedFileEntries(parsed: unknown): SeedFileEntry[] {
  const entries = Array.isArray(parsed) ? parsed : [parsed];
  return entries.map((entry: unknown, i) => {
    const at = Array.isArray(parsed) ? `[${i}].` : '';
    if (!isObject(entry) || !Array.isArray(entry.documents))
      throw invalidRequest([{ in: 'body', name: `${at}documents`, message: 'must be an array of documents to create' }]);
    for (const key of Object.keys(entry))
      if (key !== 'documents' && key !== 'api_key')
        throw invalidRequest([{ in: 'body', name: `${at}${key}`, message: 'unknown field; known: api_key, documents' }]);
    if (entry.api_key !== undefined && typeof entry.api_key !== 'string')
      throw invalidRequest([{ in: 'body', name: `${at}api_key`, message: 'must be a string' }]);
    return { ...(entry.api_key === undefined ? {} : { apiKey: entry.api_key as string }), documents: entry.documents };
  });
}
