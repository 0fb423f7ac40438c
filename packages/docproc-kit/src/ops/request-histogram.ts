import type { Registry } from 'prom-client';

/** One operation and status's counts: a bucket index per observation, no allocation. */
interface Cell {
  operation: string;
  status: string;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The requests histogram, by operation and status, kept in typed arrays and handed to the registry as a
 * collector of its own: prom-client's own histogram child builds a labels object and a hash string on
 * every observation, and this runs on every request of the hot path. Exposed as a standard histogram
 * (cumulative `_bucket{le}`, `_sum`, `_count`).
 * @example const observe = createRequestHistogram(registry, { name, help, buckets }); observe('getDocument', 200, 0.0004);
 */
export function createRequestHistogram(
  registry: Registry,
  { name, help, buckets }: { name: string; help: string; buckets: readonly number[] },
): (operation: string, status: number, seconds: number) => void {
  const cells = new Map<string, Map<number, Cell>>();
  const bounds = Float64Array.from(buckets);
  const cellOf = (operation: string, status: number): Cell => {
    let byStatus = cells.get(operation);
    if (!byStatus) {
      byStatus = new Map();
      cells.set(operation, byStatus);
    }
    let cell = byStatus.get(status);
    if (!cell) {
      cell = { operation, status: String(status), buckets: new Float64Array(bounds.length), sum: 0, count: 0 };
      byStatus.set(status, cell);
    }
    return cell;
  };
  const collector = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
      for (const byStatus of cells.values()) {
        for (const cell of byStatus.values()) {
          const labels = { operation: cell.operation, status: cell.status };
          let cumulative = 0;
          for (let i = 0; i < bounds.length; i++) {
            cumulative += cell.buckets[i]!;
            values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bounds[i]! }, value: cumulative });
          }
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: cell.count });
          values.push({ metricName: `${name}_sum`, labels, value: cell.sum });
          values.push({ metricName: `${name}_count`, labels, value: cell.count });
        }
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
    reset() {
      cells.clear();
    },
  };
  // A collector of prom-client's metric shape (name, help, type, get): the registry only reads those.
  registry.registerMetric(collector as unknown as Parameters<Registry['registerMetric']>[0]);
  return (operation, status, seconds) => {
    const cell = cellOf(operation, status);
    cell.sum += seconds;
    cell.count++;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= bounds[i]!) {
        cell.buckets[i]!++;
        return;
      }
    }
  };
}
