// Model-call latency percentiles by nearest rank: the ceil(p·n)-th fastest call, found by walking
// the (latency_ms, …) or (model, latency_ms, …) index to that offset rather than sorting the calls.
// The indexes also hold created_at and level, so a time or level filter is checked in the index.
import type { AnalyticsQuery } from '../../schema/analytics.ts';
import { nearestRank } from '../../schema/nearest-rank.ts';
import { filterSql } from './filter-sql.ts';

export type Percentiles = { p50: number | null; p95: number | null; p99: number | null };
const POINTS = [50, 95, 99] as const;

/** Nearest-rank position (0-based) of the p-th percentile in n sorted values (schema/nearest-rank.ts). */
const rank = (p: number, n: number) => nearestRank(p, n) - 1;

/** p50, p95 and p99 of each group's calls; `count` is how many calls the group has under the filter. */
export async function latencyPercentiles(
  db: D1Database,
  query: AnalyticsQuery,
  groups: readonly { model?: string; count: number }[],
): Promise<Percentiles[]> {
  const statements = groups.flatMap(({ model, count }) => {
    if (count === 0) return [];
    const { where, params } = filterSql(
      { ...query, ...(model === undefined ? {} : { model }) },
      { time: 'created_at', model: 'model', level: 'level' },
    );
    // From the nearer end: p95 and p99 walk down from the slowest call, a few steps instead of n.
    const up = `SELECT latency_ms AS v FROM llm_calls${where} ORDER BY latency_ms LIMIT 1 OFFSET ?`;
    const down = `SELECT latency_ms AS v FROM llm_calls${where} ORDER BY latency_ms DESC LIMIT 1 OFFSET ?`;
    return POINTS.map((p) => {
      const r = rank(p, count);
      return r <= count / 2 ? db.prepare(up).bind(...params, r) : db.prepare(down).bind(...params, count - 1 - r);
    });
  });
  const answers = statements.length ? await db.batch<{ v: number }>(statements) : [];
  let next = 0;
  return groups.map(({ count }) => {
    if (count === 0) return { p50: null, p95: null, p99: null };
    const [p50, p95, p99] = POINTS.map(() => answers[next++]!.results[0]?.v ?? null) as [
      number | null,
      number | null,
      number | null,
    ];
    return { p50, p95, p99 };
  });
}
