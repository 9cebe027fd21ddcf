// GET /api/analytics/series: runs (by status), model calls, errors, tokens, cost and mean model
// latency per hour or day, for the charts. Buckets are UTC.
import type { AnalyticsSeries, SeriesQuery } from '../../schema/analytics.ts';
import type { RunStatus } from '../../schema/run.ts';
import { filterSql } from './filter-sql.ts';

type Point = AnalyticsSeries['points'][number];

export async function analyticsSeries(db: D1Database, query: SeriesQuery): Promise<AnalyticsSeries> {
  const size = query.bucket === 'hour' ? 3_600_000 : 86_400_000;
  const runs = filterSql({ ...query, level: undefined }, { time: 'created_at', model: 'model', target: 'target' });
  const calls = filterSql(query, { time: 'created_at', model: 'model', level: 'level' });
  const [byStatus, byCalls] = await db.batch<Record<string, number | string>>([
    db.prepare(`SELECT (created_at / CAST(? AS INTEGER)) * CAST(? AS INTEGER) AS t, status, count(*) AS n FROM runs${runs.where} GROUP BY t, status`).bind(size, size, ...runs.params),
    db
      .prepare(
        `SELECT (created_at / CAST(? AS INTEGER)) * CAST(? AS INTEGER) AS t, count(*) AS n, coalesce(sum(error_class IS NOT NULL), 0) AS errors,
         coalesce(sum(prompt_tokens + completion_tokens), 0) AS tokens, coalesce(sum(cost_usd), 0) AS cost, avg(latency_ms) AS latency
         FROM llm_calls${calls.where} GROUP BY t`,
      )
      .bind(size, size, ...calls.params),
  ]);
  const points = new Map<number, Point>();
  const at = (t: number): Point => {
    let point = points.get(t);
    if (!point) {
      point = { t: new Date(t).toISOString(), runs: 0, byStatus: {}, modelCalls: 0, errors: 0, tokens: 0, costUsd: 0, avgLatencyMs: null };
      points.set(t, point);
    }
    return point;
  };
  for (const row of byStatus!.results as { t: number; status: RunStatus; n: number }[]) {
    const point = at(row.t);
    point.runs += row.n;
    point.byStatus[row.status] = row.n;
  }
  for (const row of byCalls!.results as { t: number; n: number; errors: number; tokens: number; cost: number; latency: number | null }[]) {
    Object.assign(at(row.t), { modelCalls: row.n, errors: row.errors, tokens: row.tokens, costUsd: row.cost, avgLatencyMs: row.latency });
  }
  return { bucket: query.bucket, points: [...points.entries()].sort(([a], [b]) => a - b).map(([, p]) => p) };
}
