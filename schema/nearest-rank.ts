// Nearest-rank percentiles: the one definition the analytics, the archive's figures and the forecast
// share. The p-th percentile of n sorted values is the ceil(p·n/100)-th smallest (at least the first).
// Points are whole percents so JavaScript and SQL integer arithmetic agree exactly.

/** 1-based rank of the `percent`-th percentile (a whole number, 1..100) among n sorted values; 0 when n is 0. */
export function nearestRank(percent: number, n: number): number {
  if (n <= 0) return 0;
  return Math.max(1, Math.ceil((percent * n) / 100));
}

/** The `percent`-th percentile of values sorted ascending; null when there are none. */
export function nearestRankValue(sorted: readonly number[], percent: number): number | null {
  return sorted[nearestRank(percent, sorted.length) - 1] ?? null;
}

/** The same rank as a SQLite expression over `n`, which must be an INTEGER (ceil by integer division). */
export function nearestRankSql(percent: number, n: string): string {
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new Error(`bad percentile ${percent}`);
  return `max(1, (${percent} * ${n} + 99) / 100)`;
}
