import type { Extractor } from '@docproc-kit/reference/processing/extraction.js';
import type { Extraction } from '@docproc-kit/reference/processing/lifecycle.js';

/** How the twin's store names a document's file, so its extractor knows which document a run reads. */
export const twinFilePath = (id: number) => `reference-twin:${id}`;
const idOf = (path: string | undefined) => Number(path?.slice(twinFilePath(0).length - 1));

/** An extractor whose runs wait until the oracle says how each ends. */
export interface GatedExtractor extends Extractor {
  /** Ends the run of the twin's document `id`, or the next one that starts for it. */
  release(id: number, extraction: Extraction): void;
}

const STOPPED: Extraction = { ok: false, error: { code: 'processing_error', message: 'The oracle stopped.' } };

/**
 * The reference twin's extractor. A run of the twin must not end before the target's: the twin's documents
 * stay `processing` until the target's have ended, and then end as the oracle decides (the text the oracle
 * wrote into the file, or the target's own verdict where the contract lets a deployment decide: a transient
 * fault, a processing limit, an image's OCR). Runs are told apart by the document they read ({@link twinFilePath}).
 * @example const extractor = createGatedExtractor(); extractor.release(3, { ok: true, text: 'words' });
 */
export function createGatedExtractor(): GatedExtractor {
  const waiting = new Map<number, Array<(extraction: Extraction) => void>>();
  const decided = new Map<number, Extraction[]>();
  const take = <T>(map: Map<number, T[]>, key: number): T | undefined => {
    const list = map.get(key);
    const first = list?.shift();
    if (list && !list.length) map.delete(key);
    return first;
  };
  const put = <T>(map: Map<number, T[]>, key: number, value: T) => map.set(key, [...(map.get(key) ?? []), value]);
  return {
    async extract(source) {
      const key = idOf(source.path);
      const ready = take(decided, key);
      if (ready) return ready;
      return new Promise<Extraction>((resolve) => put(waiting, key, resolve));
    },
    release(key, extraction) {
      const run = take(waiting, key);
      if (run) run(extraction);
      else put(decided, key, extraction);
    },
    async close() {
      for (const runs of waiting.values()) for (const run of runs) run(STOPPED);
      waiting.clear();
    },
  };
}
