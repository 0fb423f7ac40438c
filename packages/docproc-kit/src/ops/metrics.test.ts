import { promtoolCheck } from '@docproc-kit/test-support/promtool.js';
import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.js';

// What each hook of the metrics shows in the exposition Prometheus scrapes, and that promtool accepts it.
describe('createMetrics', () => {
  const metrics = createMetrics();
  metrics.observeRequest('getDocument', 200, 0.0004);
  metrics.observeRequest('getDocument', 200, 0.02);
  metrics.observeRequest('uploadDocuments', 413, 3);
  metrics.runs.runFinished('failed', 'unreadable_document', 1.2, 3);
  metrics.runs.runFinished('completed', undefined, 0.3, 1.6);
  metrics.extractionReplaced('memory_limit');
  metrics.extractionReplaced('grew');
  const listeners: Record<string, () => void> = {};
  metrics.watch({
    documentsByStatus: async () => ({ processing: 1, completed: 2, failed: 3 }),
    queueDepth: () => 4,
    pool: { totalCount: 3, idleCount: 2, waitingCount: 0, on: (event, listener) => (listeners[event] = listener) },
    connections: () => ({ open: 7, overLimit: 2, refused: 1, evicted: 5, unavailable: 3 }),
  });
  listeners.connect!();
  listeners.error!();
  const exposition = metrics.expose().then(({ body }) => body);

  it('is accepted by promtool check metrics', async () => {
    expect(promtoolCheck(await exposition)).toBe('');
  });

  it.each([
    [
      'requests by operation and status, in cumulative buckets',
      'docproc_http_request_duration_seconds_bucket{operation="getDocument",status="200",le="0.0005"} 1',
    ],
    ['the same, further up', 'docproc_http_request_duration_seconds_bucket{operation="getDocument",status="200",le="0.025"} 2'],
    ['their count', 'docproc_http_request_duration_seconds_count{operation="uploadDocuments",status="413"} 1'],
    ['runs by outcome and error code', 'docproc_run_duration_seconds_count{outcome="failed",error_code="unreadable_document"} 1'],
    ['completed runs', 'docproc_run_duration_seconds_count{outcome="completed",error_code="none"} 1'],
    ['the queue wait', 'docproc_queue_wait_seconds_count 2'],
    ['the queue depth', 'docproc_queue_depth 4'],
    ['documents by status', 'docproc_documents{status="failed"} 3'],
    ['extraction processes replaced', 'docproc_extraction_processes_replaced_total{reason="memory_limit"} 1'],
    ['memory-limit stops', 'docproc_extraction_memory_limit_stops_total 1'],
    ['the database pool', 'docproc_db_pool_connections{state="idle"} 2'],
    ['reconnects', 'docproc_db_connections_opened_total 1'],
    ['connections the server cut', 'docproc_db_connections_lost_total 1'],
    ['connection-cap evictions', 'docproc_http_connections_limited_total{action="evicted"} 5'],
    ['requests beyond the caps answered 503', 'docproc_http_connections_limited_total{action="unavailable"} 3'],
    ['open connections, within the caps and beyond them', 'docproc_http_connections_open 9'],
  ])('shows %s', async (_, line) => {
    expect((await exposition).split('\n')).toContain(line);
  });
});
