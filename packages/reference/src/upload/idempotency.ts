import { BUNDLED, ruleTest } from '@docproc-kit/contract/bundled.js';
import { invalidRequest } from '../http/problem.js';
import type { ReceivedFile } from '../http/upload/received-upload.js';

/** The request header that makes an upload safe to retry. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** How long a successful upload is remembered under its key (24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

// The contract's IdempotencyKey parameter rule.
const saneKey = ruleTest(BUNDLED.idempotencyKey);

/**
 * What identifies "the same upload": each file's name and bytes, in part order.
 * @example fingerprint([{ filename: 'a.pdf', sha256: 'ab…' }]);
 */
export async function fingerprint(files: Array<Pick<ReceivedFile, 'filename' | 'sha256'>>): Promise<string> {
  // Web Crypto, so the same fingerprint is made in Node and in a browser.
  const json = new TextEncoder().encode(JSON.stringify(files.map((f) => [f.filename, f.sha256])));
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', json));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A request's `Idempotency-Key` header as the contract allows it (1-255 printable ASCII characters), or
 * undefined when there is none; any other value is an `invalid_request` naming the header, like every
 * malformed parameter.
 * @example const key = parseIdempotencyKey(request.header('Idempotency-Key'));
 */
export function parseIdempotencyKey(key: string | undefined): string | undefined {
  if (key !== undefined && !saneKey(key)) {
    throw invalidRequest([
      {
        in: 'header',
        name: IDEMPOTENCY_HEADER,
        message: `must be ${BUNDLED.idempotencyKey.minLength} to ${BUNDLED.idempotencyKey.maxLength} printable ASCII characters`,
      },
    ]);
  }
  return key;
}
