/**
 * How far an upload's socket is read ahead of its parser and the disk: 16 MiB while they lag. Squid 5
 * (Debian's) aborts an upload whose server stops reading long enough to fill its buffer (its bug 5405:
 * it reads the client with no room left and takes the 0 for the client's close), so reading on while a
 * file is hashed and written keeps a proxy on loopback, faster than the disk, from filling it.
 */
export const READ_AHEAD_BYTES = 16 * 1024 * 1024;

/**
 * What every upload of the process may hold ahead of its parser together (64 MiB): four at the full read-ahead.
 * Beyond it an upload reads {@link READ_AHEAD_FLOOR_BYTES} ahead, so 1,024 connections uploading to a stalled
 * disk hold 64 MiB + 1,024 × 64 KiB, not 1,024 × 16 MiB.
 */
export const READ_AHEAD_TOTAL_BYTES = 64 * 1024 * 1024;

/** What an upload reads ahead when the process's read-ahead is taken: a stream's usual buffer. */
export const READ_AHEAD_FLOOR_BYTES = 64 * 1024;

/** A share of the read-ahead: the bytes it may hold, and how to give them back (once; later calls do nothing). */
export interface ReadAheadShare {
  bytes: number;
  release(): void;
}

/** The read-ahead the uploads of one process share. */
export interface ReadAheadBudget {
  /** Takes a share for one upload: the full read-ahead while the budget lasts, else the floor. */
  take(): ReadAheadShare;
  /** Bytes handed out now, floors excluded. */
  readonly taken: number;
}

/**
 * The budget of bytes read ahead of upload parsers, shared by every upload of a server: a share is taken
 * when an upload starts and given back when its parsing ends, so the read-ahead is a real limit of the
 * process, whatever the number of uploads.
 * @example const share = createReadAheadBudget().take(); new PassThrough({ highWaterMark: share.bytes / 2 }); share.release();
 */
export function createReadAheadBudget({
  total = READ_AHEAD_TOTAL_BYTES,
  perUpload = READ_AHEAD_BYTES,
  floor = READ_AHEAD_FLOOR_BYTES,
}: {
  total?: number;
  perUpload?: number;
  floor?: number;
} = {}): ReadAheadBudget {
  let taken = 0;
  return {
    take() {
      const bytes = Math.min(perUpload, total - taken);
      if (bytes <= floor) return { bytes: floor, release: () => {} };
      taken += bytes;
      let held = true;
      return {
        bytes,
        release() {
          if (!held) return;
          held = false;
          taken -= bytes;
        },
      };
    },
    get taken() {
      return taken;
    },
  };
}
