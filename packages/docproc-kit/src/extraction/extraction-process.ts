import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ExtractionJob } from './child-protocol.js';

/** How an extraction process ended. */
export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last few KB it wrote to stderr (V8 and the C++ runtime say "out of memory" there). */
  stderr: string;
}

/** One extraction process (extraction-child.ts), running under a memory limit. */
export interface ExtractionProcess {
  readonly pid: number;
  /** Its resident memory now, in bytes, read from /proc; undefined where there is no /proc or once it is gone. */
  rssBytes(): number | undefined;
  /** The most it has been resident so far (VmHWM), in bytes; undefined as for {@link rssBytes}. */
  peakBytes(): number | undefined;
  /** Asks it to read a document; its messages go to `onMessage` until the next job. */
  send(job: ExtractionJob, onMessage: (message: ChildMessage) => void): void;
  kill(): void;
  /** Settles once it has exited and every message it sent has been delivered. */
  readonly ended: Promise<ProcessEnd>;
}

const STDERR_KEPT = 4096;

// The child runs as the server does: compiled JavaScript beside this file in an installed kit; the
// TypeScript sources (through extraction-child-source.mjs, reading the other packages' sources through
// their `docproc-source` export condition) under `npm start` and the tests.
const fromSource = import.meta.url.endsWith('.ts');

function childArgs(): string[] {
  const script = fileURLToPath(new URL(fromSource ? './extraction-child-source.mjs' : './extraction-child.js', import.meta.url));
  return fromSource ? ['--conditions=docproc-source', script] : [script];
}

/** Resident memory of a process from /proc/<pid>/status (now: VmRSS, peak: VmHWM), or undefined. */
function residentBytes(pid: number, which: 'now' | 'peak' = 'now'): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const kb = (which === 'now' ? /VmRSS:\s+(\d+)/ : /VmHWM:\s+(\d+)/).exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
}

/**
 * Starts an extraction process. On Linux it runs under RLIMIT_DATA of `memoryMb` (set by the shell
 * that execs it): every private writable mapping counts against it (the V8 heap, Buffers and typed
 * arrays, wasm memory, native canvases, thread stacks), so an allocation past it fails at once
 * instead of growing. Its V8 heap is capped at half of it besides, so a JavaScript-heavy document
 * stops at a clean heap limit before it takes everything.
 * @example const child = startExtractionProcess({ memoryMb: 512 }); child.send(job, onMessage);
 */
export function startExtractionProcess({ memoryMb }: { memoryMb: number }): ExtractionProcess {
  const node = [process.execPath, '--expose-gc', `--max-old-space-size=${Math.max(32, Math.floor(memoryMb / 2))}`, ...childArgs()];
  const command =
    process.platform === 'linux' ? ['/bin/sh', '-c', 'ulimit -d "$1" && shift && exec "$@"', 'sh', String(memoryMb * 1024), ...node] : node;
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Structured clone, so a document's bytes (from a store that keeps no files) travel as bytes.
    serialization: 'advanced',
    // Not the server's options (a --max-old-space-size, an inspector port) in NODE_OPTIONS.
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT);
  });
  let listener: ((message: ChildMessage) => void) | undefined;
  child.on('message', (message: ChildMessage) => listener?.(message));
  // 'close' comes after 'exit' once stdio and the IPC channel are drained: no message is still on its way.
  const ended = new Promise<ProcessEnd>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
    // A failed start, or a job sent to a process that just died; 'close' follows a death.
    child.on('error', (error) => {
      if (child.pid === undefined) resolve({ code: null, signal: null, stderr: `could not start: ${error.message}` });
    });
  });
  return {
    pid: child.pid ?? -1,
    rssBytes: () => (child.pid === undefined ? undefined : residentBytes(child.pid)),
    peakBytes: () => (child.pid === undefined ? undefined : residentBytes(child.pid, 'peak')),
    send(job, onMessage) {
      listener = onMessage;
      child.send(job);
    },
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
    ended,
  };
}
