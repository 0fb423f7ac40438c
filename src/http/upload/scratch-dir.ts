import { mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * The folder uploads are received into before a store takes them: made if missing, and emptied, since
 * anything in it at start-up belongs to an upload a previous process never finished.
 * @example const tmpDir = await prepareScratchDir('.docproc/tmp');
 */
export async function prepareScratchDir(dir: string): Promise<string> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  for (const name of await readdir(root)) await rm(join(root, name), { recursive: true, force: true });
  return root;
}
