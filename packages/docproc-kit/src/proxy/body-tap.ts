/** The first bytes of a body and its whole length. */
export interface TappedBody {
  bytes: Buffer;
  size: number;
  /** The body was longer than the cap: `bytes` is only its beginning. */
  truncated: boolean;
}

/** Keeps at most `cap` bytes of a body streaming by, and counts the rest. */
export interface BodyTap {
  write(chunk: Buffer): void;
  end(): TappedBody;
}

/**
 * A tap that keeps a body's first `cap` bytes (what the judge reads) and only counts the rest.
 * @example const tap = createBodyTap(1 << 20); res.on('data', tap.write); tap.end().truncated
 */
export function createBodyTap(cap: number): BodyTap {
  const chunks: Buffer[] = [];
  let kept = 0;
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length;
      if (kept >= cap) return;
      const part = chunk.length <= cap - kept ? chunk : chunk.subarray(0, cap - kept);
      chunks.push(part);
      kept += part.length;
    },
    end: () => ({ bytes: Buffer.concat(chunks), size, truncated: size > kept }),
  };
}
