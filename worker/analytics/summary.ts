// GET /api/analytics/summary: runs by status, levels attempted and solved, tokens and cost (from the
// run_levels roll-up), and the model calls' error rate and latency percentiles.
import type { AnalyticsQuery, AnalyticsSummary } from '../../schema/analytics.ts';
import type { RunStatus } from '../../schema/run.ts';
import { filterSql } from './filter-sql.ts';

/** Nearest-rank percentile positions (0-based) in n sorted values. */
const rank = (p: number, n: number) => Math.max(0, Math.ceil(p * n) - 1);

export async function analyticsSummary(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsSummary> {
  const runs = filterSql({ ...query, level: undefined }, { time: 'created_at', model: 'model', target: 'target' });
  const levels = filterSql(query, { time: 'started_at', model: 'model', target: 'target', level: 'level' });
  const calls = filterSql(query, { time: 'created_at', model: 'model', level: 'level' });
  const [byStatus, levelRow, callRow] = await db.batch<Record<string, number | string | null>>([
    db.prepare(`SELECT status, count(*) AS n FROM runs${runs.where} GROUP BY status`).bind(...runs.params),
    db
      .prepare(
        `SELECT count(*) AS attempted, coalesce(sum(solved), 0) AS solved, coalesce(sum(solved AND helped), 0) AS helped,
         coalesce(sum(prompt_tokens), 0) AS prompt, coalesce(sum(completion_tokens), 0) AS completion, coalesce(sum(cost_usd), 0) AS cost
         FROM run_levels${levels.where}`,
      )
      .bind(...levels.params),
    db.prepare(`SELECT count(*) AS n, coalesce(sum(error_class IS NOT NULL), 0) AS errors FROM llm_calls${calls.where}`).bind(...calls.params),
  ]);
  const counts = Object.fromEntries((byStatus!.results as { status: RunStatus; n: number }[]).map((r) => [r.status, r.n])) as Partial<Record<RunStatus, number>>;
  const l = levelRow!.results[0] as { attempted: number; solved: number; helped: number; prompt: number; completion: number; cost: number };
  const c = callRow!.results[0] as { n: number; errors: number };
  const latency = { p50: null as number | null, p95: null as number | null, p99: null as number | null };
  if (c.n > 0) {
    const ranks = { p50: rank(0.5, c.n), p95: rank(0.95, c.n), p99: rank(0.99, c.n) };
    const sql = `SELECT latency_ms AS v FROM llm_calls${calls.where} ORDER BY latency_ms LIMIT 1 OFFSET ?`;
    const answers = await db.batch<{ v: number }>(Object.values(ranks).map((offset) => db.prepare(sql).bind(...calls.params, offset)));
    [latency.p50, latency.p95, latency.p99] = answers.map((a) => a.results[0]?.v ?? null) as [number, number, number];
  }
  return {
    runs: { total: Object.values(counts).reduce((a, b) => a + (b ?? 0), 0), byStatus: counts },
    levels: { attempted: l.attempted, solved: l.solved, solveRate: l.attempted ? l.solved / l.attempted : null, solvedWithHelp: l.helped },
    tokens: { prompt: l.prompt, completion: l.completion },
    costUsd: l.cost,
    modelCalls: { count: c.n, errors: c.errors, errorRate: c.n ? c.errors / c.n : null, latencyMs: latency },
  };
}
