import { createInterface } from 'node:readline';
import { prepareDataDir } from 'docproc-kit/store/lowdb/data-dir.js';

// A process that takes a data dir's lock on command, for tests of two servers starting at once.
// Reads lines from stdin: `try <dir>` answers `got` or `locked`; `release` answers `released`.
let release: (() => Promise<void>) | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...rest] = line.split(' ');
  if (command === 'try') {
    try {
      release = (await prepareDataDir(rest.join(' '))).release;
      process.stdout.write('got\n');
    } catch (error) {
      process.stdout.write((error as Error).name === 'DataDirLockedError' ? 'locked\n' : `error ${(error as Error).message}\n`);
    }
  } else if (command === 'release') {
    await release?.();
    release = undefined;
    process.stdout.write('released\n');
  }
}
