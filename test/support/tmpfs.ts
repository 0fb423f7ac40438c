import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN, as in CI): tests of a full or
 * read-only disk need one and are skipped, saying so, where they cannot have it.
 */
export const canMountTmpfs: boolean = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = join(tmpdir(), `docproc-mount-probe-${process.pid}`);
  spawnSync('mkdir', ['-p', probe]);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status === 0;
  if (mounted) spawnSync('umount', [probe]);
  spawnSync('rmdir', [probe]);
  return mounted;
})();

/** A small real file system of its own, to be made read-only or to fill up. */
export interface Tmpfs {
  dir: string;
  /** Remounts it read-only: every write fails with EROFS. */
  readOnly(): void;
  writable(): void;
  unmount(): Promise<void>;
}

/**
 * Mounts a tmpfs of `size` (e.g. `8m`) on a new temp dir.
 * @example const fs = await mountTmpfs('8m'); fs.readOnly(); ...; await fs.unmount();
 */
export async function mountTmpfs(size: string): Promise<Tmpfs> {
  const dir = await mkdtemp(join(tmpdir(), 'docproc-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return {
    dir,
    readOnly: () => execFileSync('mount', ['-o', 'remount,ro', dir]),
    writable: () => execFileSync('mount', ['-o', 'remount,rw', dir]),
    async unmount() {
      spawnSync('umount', ['-l', dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
