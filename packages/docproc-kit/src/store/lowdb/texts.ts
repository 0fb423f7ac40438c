import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { writeFileDurably } from './durable-fs.js';

// Reading every text file at once would exhaust file handles on a big store.
const READS_AT_ONCE = 32;
// Clients poll the documents they are showing; their text is served from memory, within a budget.
const CACHE_BYTES = 64 * 1024 * 1024;

/** The extracted texts of a data dir: one file per completed document, the recently read ones cached. */
export interface TextFiles {
  /** A document's text; '' when its file is missing (a run that completed with no file is treated as textless). */
  read(id: number): Promise<string>;
  /** Writes a document's text durably, then caches it. */
  write(id: number, text: string): Promise<void>;
  remove(id: number): Promise<void>;
  /**
   * Reads the texts of `ids` in the background, handing each to `found`; an unreadable one is logged and
   * skipped (its document is then found by its name only).
   */
  loadAll(ids: number[], found: (id: number, text: string) => void): Promise<void>;
}

/** The text files of `dir` (a data dir's texts/). */
export function createTextFiles(dir: string, logger?: Logger): TextFiles {
  const cache = new LRUCache<number, string>({ maxSize: CACHE_BYTES, sizeCalculation: (text) => text.length * 2 + 1 });
  const pathOf = (id: number) => join(dir, `${id}.txt`);
  const readText = (id: number) =>
    readFile(pathOf(id), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
  return {
    async read(id) {
      const cached = cache.get(id);
      if (cached !== undefined) return cached;
      const text = await readText(id);
      cache.set(id, text);
      return text;
    },
    async write(id, text) {
      await writeFileDurably(pathOf(id), text);
      cache.set(id, text);
    },
    async remove(id) {
      cache.delete(id);
      await rm(pathOf(id), { force: true });
    },
    async loadAll(ids, found) {
      const pending = [...ids];
      const worker = async () => {
        for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
          try {
            found(id, await readText(id));
          } catch (err) {
            // One unreadable text must not fail every search.
            logger?.error({ err, documentId: id }, 'could not read the extracted text of a document; search leaves its text out');
          }
        }
      };
      await Promise.all(Array.from({ length: READS_AT_ONCE }, worker));
    },
  };
}
