import { readdirSync, readFileSync } from 'node:fs';

const PAGE_BYTES = 4096;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process ended between listing and reading
  }
}

/** The parent pid of every process now, from /proc/<pid>/stat (the field after the parenthesised name). */
function parents(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byPid.set(Number(name), Number(fields[1]));
  }
  return byPid;
}

/** `root` and every process descended from it, now. */
export function processTree(root: number): number[] {
  const byPid = parents();
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, ppid] of byPid) if (ppid === tree[i]) tree.push(pid);
  return tree;
}

/** Resident bytes of one process (/proc/<pid>/statm), 0 once it is gone. */
export function rssBytes(pid: number): number {
  const statm = read(`/proc/${pid}/statm`);
  return statm ? Number(statm.split(' ')[1]) * PAGE_BYTES : 0;
}

/** The resident bytes of `root` and all its descendants, summed. */
export function treeRssBytes(root: number): number {
  return processTree(root).reduce((sum, pid) => sum + rssBytes(pid), 0);
}

/** A sampler of a process tree's summed RSS; `stop()` ends it and gives the peak and the samples taken. */
export function sampleTreeRss(root: number, everyMs = 50): { peakBytes: () => number; stop: () => { peakBytes: number; samples: number } } {
  let peak = 0;
  let samples = 0;
  const take = () => {
    peak = Math.max(peak, treeRssBytes(root));
    samples++;
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    peakBytes: () => peak,
    stop() {
      clearInterval(timer);
      take();
      return { peakBytes: peak, samples };
    },
  };
}

/** The processes descended from `root` whose command line contains `text` (e.g. `extraction-child`). */
export function descendantsRunning(root: number, text: string): number[] {
  return processTree(root)
    .slice(1)
    .filter((pid) => (read(`/proc/${pid}/cmdline`) ?? '').includes(text));
}
