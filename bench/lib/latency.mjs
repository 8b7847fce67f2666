/** The value at percentile `p` of `sorted` latencies (nearest rank), or null when there are none. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/** How many latencies, their p50, p99 and max in ms (two decimals; null when there are none). */
export function latencySummary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  const round = (value) => (value === null ? null : Number(value.toFixed(2)));
  return {
    count: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.length ? sorted[sorted.length - 1] : null),
  };
}
