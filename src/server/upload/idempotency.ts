import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { RequestHandler } from 'express';
import { tenantOf } from '../auth.js';
import { ApiError, invalidRequest } from '../errors.js';
import type { DocumentRecord } from '../model.js';
import type { Remember, Store } from '../store.js';
import type { ReceivedFile } from './upload-parser.js';

/** The request header that makes an upload safe to retry. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long a successful upload is remembered under its key (24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const SANE_KEY = /^[\x20-\x7E]{1,255}$/;

/**
 * What identifies "the same upload": each file's name and bytes, in part order.
 * @example fingerprint([{ filename: 'a.pdf', sha256: 'ab…' }]);
 */
export function fingerprint(files: Array<Pick<ReceivedFile, 'filename' | 'sha256'>>): string {
  return createHash('sha256')
    .update(JSON.stringify(files.map((f) => [f.filename, f.sha256])))
    .digest('hex');
}

/**
 * Checks the `Idempotency-Key` header (1-255 printable ASCII characters) and refuses a repeat
 * while the first upload under the same key and tenant is still being handled. The key is left in
 * `res.locals.idempotencyKey` for the upload handler; the in-flight mark lasts until the response
 * is done, whatever its outcome.
 * @example router.post('/upload_files', idempotencyGate(), parser, handler);
 */
export function idempotencyGate(): RequestHandler {
  const inFlight = new Set<string>();
  return (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!SANE_KEY.test(key)) {
      throw invalidRequest([{ in: 'header', name: IDEMPOTENCY_HEADER, message: 'must be 1 to 255 printable ASCII characters' }]);
    }
    const slot = `${tenantOf(res)}\n${key}`;
    if (inFlight.has(slot)) {
      throw new ApiError('idempotency_key_in_use', `An upload with ${IDEMPOTENCY_HEADER} ${JSON.stringify(key)} is still in progress; retry shortly.`);
    }
    inFlight.add(slot);
    res.once('close', () => inFlight.delete(slot));
    res.locals.idempotencyKey = key;
    next();
  };
}

/**
 * The documents of the earlier upload to replay, as they were uploaded, when this tenant already
 * uploaded these files under this key (the new temp files are dropped); undefined when the key is
 * new or expired. The same key with other files is `idempotency_key_reused`.
 * @example const replay = await earlierUpload(store, { tenant, key, files, now: new Date() });
 */
export async function earlierUpload(
  store: Store,
  { tenant, key, files, now }: { tenant: string; key: string; files: ReceivedFile[]; now: Date },
): Promise<DocumentRecord[] | undefined> {
  const earlier = store.idempotent(tenant, key, now.toISOString());
  if (!earlier) return undefined;
  await Promise.all(files.map((f) => rm(f.tempPath, { force: true })));
  if (earlier.fingerprint !== fingerprint(files)) {
    throw new ApiError('idempotency_key_reused', `${IDEMPOTENCY_HEADER} ${JSON.stringify(key)} was already used for an upload of other files.`);
  }
  return earlier.documents;
}

/** What the store remembers of a first upload under a key, for {@link earlierUpload}. */
export function rememberUpload({ key, files, now }: { key: string; files: ReceivedFile[]; now: Date }): Remember {
  return { key, fingerprint: fingerprint(files), expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString() };
}
