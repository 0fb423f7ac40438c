import type { RunObserver } from '@docproc-kit/reference/processing/processor.js';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ReplacedBecause } from '../extraction/extraction-pool.js';
import { createRequestHistogram } from './request-histogram.js';

/** What the metrics read when scraped: each a number of this replica (or of the shared database) now. */
export interface MetricSources {
  /** Documents by status (every tenant's). */
  documentsByStatus?: () => Promise<Record<string, number>>;
  /** Runs queued and not started yet. */
  queueDepth?: () => Promise<number> | number;
  /** The database pool's connections. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number; on(event: 'connect' | 'error', listener: () => void): unknown };
  /**
   * Client connections: open now (within the caps, and `overLimit` beyond them), and refused, evicted or
   * answered 503 (`unavailable`) at the caps so far (see http/connection-limits.ts).
   */
  connections?: () => { open: number; overLimit?: number; refused: number; evicted: number; unavailable?: number };
}

/** The service's Prometheus metrics, and the hooks that feed them. */
export interface Metrics {
  registry: Registry;
  /** One answered request: its operation (operationId, `controls`, `unknown` or `other`), status and duration. */
  observeRequest(operation: string, status: number, seconds: number): void;
  /** Told of every finished run. */
  runs: RunObserver;
  /** Told of every extraction process replaced after a document. */
  extractionReplaced(reason: ReplacedBecause): void;
  /** Starts reading these sources on each scrape (call once the service is up). */
  watch(sources: MetricSources): void;
  /** The text exposition format, and its content type. */
  expose(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * A registry of its own (never prom-client's global one) with the service's metrics, named `docproc_*`:
 * requests by operation and status with their latency, documents by status, the queue's depth and wait,
 * runs by outcome and error code, extraction processes replaced (memory-limit stops among them), the
 * database pool and its reconnects, client connections evicted or refused, and Node's process metrics.
 * No label carries a tenant or a key. A request costs two map lookups and a few additions (see
 * request-histogram.ts).
 * @example const metrics = createMetrics(); const service = await createReferenceService({ ..., metrics });
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'docproc_' });
  // Gauges whose names end in _total, which `promtool check metrics` refuses (counters only may).
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(`docproc_${name}`);
  const registers = [registry];
  let sources: MetricSources = {};

  const observeRequest = createRequestHistogram(registry, {
    name: 'docproc_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by operation (operationId, controls, unknown or other) and status.',
    buckets: LATENCY_BUCKETS,
  });

  const runDuration = new Histogram({
    name: 'docproc_run_duration_seconds',
    help: 'Time a processing run took, by outcome and error code (none for completed runs).',
    labelNames: ['outcome', 'error_code'] as const,
    buckets: RUN_BUCKETS,
    registers,
  });
  const runWait = new Histogram({
    name: 'docproc_queue_wait_seconds',
    help: 'Time from a document entering processing (its processing delay included) to its run starting.',
    buckets: RUN_BUCKETS,
    registers,
  });
  const replaced = new Counter({
    name: 'docproc_extraction_processes_replaced_total',
    help: 'Extraction processes replaced after a document, by reason.',
    labelNames: ['reason'] as const,
    registers,
  });
  const memoryStops = new Counter({
    name: 'docproc_extraction_memory_limit_stops_total',
    help: 'Extractions stopped at the extraction memory limit (--extraction-memory-mb).',
    registers,
  });
  new Gauge({
    name: 'docproc_documents',
    help: 'Documents by status, every tenant together.',
    labelNames: ['status'] as const,
    registers,
    async collect() {
      const counts = await sources.documentsByStatus?.().catch(() => undefined);
      this.reset();
      for (const [status, n] of Object.entries(counts ?? {})) this.set({ status }, n);
    },
  });
  new Gauge({
    name: 'docproc_queue_depth',
    help: 'Processing runs queued and not started yet (with a database: in the shared queue).',
    registers,
    async collect() {
      const depth = await Promise.resolve(sources.queueDepth?.()).catch(() => undefined);
      if (depth !== undefined) this.set(depth);
    },
  });
  new Gauge({
    name: 'docproc_db_pool_connections',
    help: "The database pool's connections, by state (total, idle, and waiting: requests waiting for one).",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { pool } = sources;
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  const opened = new Counter({
    name: 'docproc_db_connections_opened_total',
    help: 'Database connections the pool opened (beyond its first few: reconnects).',
    registers,
  });
  const lost = new Counter({
    name: 'docproc_db_connections_lost_total',
    help: 'Idle database connections the server cut (a restart, a failover).',
    registers,
  });
  new Gauge({
    name: 'docproc_http_connections_open',
    help: 'Client connections open now.',
    registers,
    collect() {
      const counts = sources.connections?.();
      if (counts) this.set(counts.open + (counts.overLimit ?? 0));
    },
  });
  const connectionsEnded = new Counter({
    name: 'docproc_http_connections_limited_total',
    help: 'Client connections the connection caps acted on: evicted (an idle one closed for a new one), refused, or unavailable (its request answered 503).',
    labelNames: ['action'] as const,
    registers,
    collect() {
      const counts = sources.connections?.();
      if (!counts) return;
      this.reset();
      this.inc({ action: 'evicted' }, counts.evicted);
      this.inc({ action: 'refused' }, counts.refused);
      this.inc({ action: 'unavailable' }, counts.unavailable ?? 0);
    },
  });
  connectionsEnded.inc({ action: 'evicted' }, 0);

  return {
    registry,
    observeRequest,
    runs: {
      runFinished(status, errorCode, durationS, waitS) {
        runDuration.labels(status, errorCode ?? 'none').observe(durationS);
        runWait.observe(waitS);
      },
    },
    extractionReplaced(reason) {
      replaced.inc({ reason });
      if (reason === 'memory_limit') memoryStops.inc();
    },
    watch(next) {
      sources = next;
      next.pool?.on('connect', () => opened.inc());
      next.pool?.on('error', () => lost.inc());
    },
    async expose() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
