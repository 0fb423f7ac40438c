// Runs inside an extraction process (see extraction-child.ts), which runs under a data limit: an
// allocation past it fails at once, and these helpers tell such a failure from any other.

/** An allocation failed: the process's memory limit stopped the document. */
export class MemoryLimitReached extends Error {
  constructor() {
    super('memory limit reached');
    this.name = 'MemoryLimitReached';
  }
}

// What a failed allocation says: V8 (a typed array past the limit, or past the largest size), Skia
// (a canvas that could not be made or read), emscripten (tesseract's wasm memory that could not
// grow), leptonica inside it ("pixdata_malloc fail", "calloc fail for buf").
const ALLOCATION_FAILED =
  /Array buffer allocation failed|Invalid typed array length|allocation failed|out of memory|skia surface failed|Read pixels from canvas failed|Cannot enlarge memory|Unable to grow|Aborted\(OOM\)|alloc fail/i;

/** Whether a message (an error's, or a warning pdf.js printed) says an allocation failed. */
export function saysAllocationFailed(message: string): boolean {
  return ALLOCATION_FAILED.test(message);
}

/** Whether an error is a failed allocation (pdf.js re-makes errors it passes on, so by its message). */
export function isAllocationFailure(error: unknown): boolean {
  return error instanceof MemoryLimitReached || (error instanceof Error && saysAllocationFailed(error.message));
}

/**
 * Collects garbage now. A rendered page's pixels are held by objects V8 collects when it sees fit,
 * which may be pages later; the extraction process runs with --expose-gc so each page's memory is
 * given back before the next page is rendered.
 */
export const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => {});
