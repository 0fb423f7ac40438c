// Test-only: the clean-room service (clean-room/, or a changed copy of it) served from a child process.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChildService, startChildService } from './child-service.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The clean-room sources, repository-relative. */
export const CLEAN_ROOM = 'packages/conformance/proofs/clean-room/';

/** What the service is started with. */
export interface CleanRoomSettings {
  apiKeys: readonly string[];
  maxFileBytes: number;
  maxFiles: number;
  /** How long a processing run lasts (default 20 ms). */
  runMs?: number;
  /** Answers gzip-compressed, chunked, with lower-case header names and `;charset=UTF-8` (clean-room/variations.ts). */
  vary?: boolean;
}

/**
 * Starts the clean-room service whose sources are in `dir` (the original by default).
 * @example const service = await serveCleanRoom({ apiKeys: ['a', 'b'], maxFileBytes: 65_536, maxFiles: 20 }); await service.close();
 */
export function serveCleanRoom(settings: CleanRoomSettings, dir = join(root, CLEAN_ROOM)): Promise<ChildService> {
  return startChildService({
    what: 'the clean-room service',
    args: [
      ...['--conditions=docproc-source', '--import', 'tsx', join(dir, 'serve-clean-room.ts')],
      ...['--port', '0', '--max-file-bytes', String(settings.maxFileBytes), '--max-files', String(settings.maxFiles)],
      ...settings.apiKeys.flatMap((key) => ['--api-key', key]),
      ...(settings.runMs !== undefined ? ['--run-ms', String(settings.runMs)] : []),
      ...(settings.vary ? ['--vary'] : []),
    ],
    cwd: root,
    startMs: 30_000,
  });
}
