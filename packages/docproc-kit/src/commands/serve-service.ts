import type { Logger } from 'pino';
import type { Metrics } from '../ops/metrics.js';
import type { ReferenceService } from '../server/service.js';
import type { ServeOptions } from './serve-options.js';
import type { ServeSettings } from './serve-settings.js';

/**
 * The reference service a `docproc serve` run answers with: its store (the data dir, or `--database-url`),
 * processing, uploads, journal and seed file, as the options set them.
 */
export async function createServeService(
  options: ServeOptions,
  { apiKeys, corsOrigins }: ServeSettings,
  { metrics, logger }: { metrics: Metrics; logger: Logger },
): Promise<ReferenceService> {
  // Loaded here, not at the top: every other command (and --help) would pay for the whole server.
  const { createReferenceService } = await import('../server/service.js');
  return createReferenceService({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    runLeaseMs: options.runLeaseMs,
    apiKeys,
    processingDelayMs: options.processingDelayMs,
    failureRate: options.failureRate,
    seed: options.seed,
    maxFileBytes: options.maxFileBytes,
    maxFiles: options.maxFiles,
    minUploadRate: { bytesPerSecond: options.minUploadRate },
    concurrency: options.concurrency,
    extraction: { memoryMb: options.extractionMemoryMb },
    corsOrigins,
    seedFile: options.seedFile,
    journalSize: options.journalSize,
    metrics,
    metricsOnApiPort: options.metricsPort === undefined,
    logger,
  });
}
