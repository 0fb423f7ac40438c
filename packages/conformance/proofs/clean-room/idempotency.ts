// Idempotency-Key memory: per API key, 24 hours, keyed on the files' names and bytes in order.
import { createHash } from 'node:crypto';
import type { UploadedFile } from './upload-parsing.js';

const DAY_MS = 24 * 60 * 60 * 1000;

interface Remembered {
  fingerprint: string;
  body: unknown;
  at: number;
}

export function fingerprintOf(files: UploadedFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(`${Buffer.byteLength(f.filename)}:${f.filename}:${f.bytes.length}:`);
    hash.update(f.bytes);
  }
  return hash.digest('hex');
}

export function createIdempotency() {
  const done = new Map<string, Remembered>();
  const inFlight = new Set<string>();
  const slot = (tenant: string, key: string) => `${tenant}\u0000${key}`;

  return {
    /** Claims a key for a running upload; false when another upload under it is still running. */
    claim(tenant: string, key: string): boolean {
      const s = slot(tenant, key);
      if (inFlight.has(s)) return false;
      inFlight.add(s);
      return true;
    },
    release(tenant: string, key: string): void {
      inFlight.delete(slot(tenant, key));
    },
    lookup(tenant: string, key: string): Remembered | undefined {
      const s = slot(tenant, key);
      const r = done.get(s);
      if (r && Date.now() - r.at > DAY_MS) {
        done.delete(s);
        return undefined;
      }
      return r;
    },
    remember(tenant: string, key: string, fingerprint: string, body: unknown): void {
      done.set(slot(tenant, key), { fingerprint, body, at: Date.now() });
    },
  };
}
