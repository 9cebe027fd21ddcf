// GET /api/analytics/summary: runs by status, levels attempted and solved, tokens and cost (from the
// run_levels roll-up), and the model calls' error rate (llm_hourly) and latency percentiles.
import { outcomeCountsOf, outcomeSql } from '../../schema/level-outcome.ts';
import type { AnalyticsQuery, AnalyticsSummary } from '../../schema/analytics.ts';
import type { RunStatus } from '../../schema/run.ts';
import { callUsage } from './call-usage.ts';
import { filterSql } from './filter-sql.ts';
import { latencyPercentiles } from './latency.ts';

export async function analyticsSummary(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsSummary> {
  const runs = filterSql({ ...query, level: undefined }, { time: 'created_at', model: 'model', target: 'target' });
  const levels = filterSql(query, { time: 'started_at', model: 'model', target: 'target', level: 'level' });
  const usage = callUsage(query);
  const [byStatus, levelRow, callRow] = await db.batch<Record<string, number | string | null>>([
    db.prepare(`SELECT status, count(*) AS n FROM runs${runs.where} GROUP BY status`).bind(...runs.params),
    db
      .prepare(
        `SELECT count(*) AS attempted, coalesce(sum(solved), 0) AS solved, coalesce(sum(${outcomeSql.helped}), 0) AS helped,
         coalesce(sum(prompt_tokens), 0) AS prompt, coalesce(sum(completion_tokens), 0) AS completion, coalesce(sum(cost_usd), 0) AS cost, ${outcomeSql.sums}
         FROM run_levels${levels.where}`,
      )
      .bind(...levels.params),
    db
      .prepare(`SELECT coalesce(sum(calls), 0) AS n, coalesce(sum(errors), 0) AS errors FROM ${usage.sql}`)
      .bind(...usage.params),
  ]);
  const counts = Object.fromEntries(
    (byStatus!.results as { status: RunStatus; n: number }[]).map((r) => [r.status, r.n]),
  ) as Partial<Record<RunStatus, number>>;
  const l = levelRow!.results[0] as {
    attempted: number;
    solved: number;
    helped: number;
    prompt: number;
    completion: number;
    cost: number;
  };
  const c = callRow!.results[0] as { n: number; errors: number };
  const [latency] = await latencyPercentiles(db, query, [{ count: c.n }]);
  return {
    runs: { total: Object.values(counts).reduce((a, b) => a + (b ?? 0), 0), byStatus: counts },
    levels: {
      attempted: l.attempted,
      solved: l.solved,
      solveRate: l.attempted ? l.solved / l.attempted : null,
      solvedWithHelp: l.helped,
      outcomes: outcomeCountsOf(l),
    },
    tokens: { prompt: l.prompt, completion: l.completion },
    costUsd: l.cost,
    modelCalls: { count: c.n, errors: c.errors, errorRate: c.n ? c.errors / c.n : null, latencyMs: latency! },
  };
}
