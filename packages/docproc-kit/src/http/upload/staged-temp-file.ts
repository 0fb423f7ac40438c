import { open, readFile, rename, rm } from 'node:fs/promises';
import type { StagedFile } from '@docproc-kit/reference/http/upload/staged-file.js';

/**
 * A staged file that is a temp file of this machine: a store on the same disk moves it (after an fsync,
 * so the rename publishes whole bytes), others read it.
 * @example await stagedTempFile('/data/tmp/3f2a.part', 48213).moveTo('/data/files/41');
 */
export function stagedTempFile(path: string, size: number): StagedFile {
  return {
    size,
    bytes: () => readFile(path),
    async moveTo(destination) {
      const handle = await open(path, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(path, destination);
    },
    discard: () => rm(path, { force: true }),
  };
}
