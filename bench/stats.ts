// Order statistics for the benchmarks' samples.

/** The p-th percentile (nearest rank) of `samples`; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The middle sample. */
export const median = (samples: readonly number[]): number => percentile(samples, 50);
