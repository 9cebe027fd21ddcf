// GET /api/analytics/series: runs (by status), model calls, errors, tokens, cost and mean model
// latency per hour or day, for the charts (calls from the llm_hourly roll-up). Buckets are UTC.
import type { AnalyticsSeries, SeriesQuery } from '../../schema/analytics.ts';
import type { RunStatus } from '../../schema/run.ts';
import { callUsage } from './call-usage.ts';
import { filterSql } from './filter-sql.ts';

type Point = AnalyticsSeries['points'][number];

export async function analyticsSeries(db: D1Database, query: SeriesQuery): Promise<AnalyticsSeries> {
  const size = query.bucket === 'hour' ? 3_600_000 : 86_400_000;
  const runs = filterSql({ ...query, level: undefined }, { time: 'created_at', model: 'model', target: 'target' });
  const usage = callUsage(query);
  const [byStatus, byCalls] = await db.batch<Record<string, number | string>>([
    db
      .prepare(
        `SELECT (created_at / CAST(? AS INTEGER)) * CAST(? AS INTEGER) AS t, status, count(*) AS n FROM runs${runs.where} GROUP BY t, status`,
      )
      .bind(size, size, ...runs.params),
    db
      .prepare(
        `SELECT (hour / CAST(? AS INTEGER)) * CAST(? AS INTEGER) AS t, sum(calls) AS n, sum(errors) AS errors,
         sum(prompt_tokens + completion_tokens) AS tokens, sum(cost_usd) AS cost, sum(latency_ms_sum) * 1.0 / sum(calls) AS latency
         FROM ${usage.sql} GROUP BY t`,
      )
      .bind(size, size, ...usage.params),
  ]);
  const points = new Map<number, Point>();
  const at = (t: number): Point => {
    let point = points.get(t);
    if (!point) {
      point = {
        t: new Date(t).toISOString(),
        runs: 0,
        byStatus: {},
        modelCalls: 0,
        errors: 0,
        tokens: 0,
        costUsd: 0,
        avgLatencyMs: null,
      };
      points.set(t, point);
    }
    return point;
  };
  for (const row of byStatus!.results as { t: number; status: RunStatus; n: number }[]) {
    const point = at(row.t);
    point.runs += row.n;
    point.byStatus[row.status] = row.n;
  }
  for (const row of byCalls!.results as {
    t: number;
    n: number;
    errors: number;
    tokens: number;
    cost: number;
    latency: number | null;
  }[]) {
    Object.assign(at(row.t), {
      modelCalls: row.n,
      errors: row.errors,
      tokens: row.tokens,
      costUsd: row.cost,
      avgLatencyMs: row.latency,
    });
  }
  return { bucket: query.bucket, points: [...points.entries()].sort(([a], [b]) => a - b).map(([, p]) => p) };
}
