/** Orders values for a Received/Expected pair as a sorted, comma-separated list. */
export function setText(values: Iterable<number | string>): string {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.length ? `[${sorted.join(', ')}]` : '[] (none)';
}

/** Whether two collections hold the same members. */
export function sameSet<T>(a: Iterable<T>, b: Iterable<T>): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
