// GET /api/analytics/models: one row per model — runs, levels attempted and solved (alone or with a
// person's help), retries, pauses, tokens, cost, and its model calls' error rate and latency
// percentiles (nearest rank, from the (model, latency_ms) index in order).
import type { AnalyticsModels, AnalyticsQuery, ModelStats } from '../../schema/analytics.ts';
import { filterSql } from './filter-sql.ts';

type LevelRow = { model: string; attempted: number; solved: number; alone: number; helped: number; retries: number; pauses: number; prompt: number; completion: number; cost: number };
type CallRow = { model: string; n: number; errors: number; p50: number; p95: number; p99: number };

export async function analyticsModels(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsModels> {
  const runs = filterSql({ ...query, level: undefined }, { time: 'created_at', model: 'model', target: 'target' });
  const levels = filterSql(query, { time: 'started_at', model: 'model', target: 'target', level: 'level' });
  const calls = filterSql(query, { time: 'created_at', model: 'model', level: 'level' });
  // Nearest rank: the ceil(p·n)-th smallest, written in integers as (p·n + 99) / 100.
  const [runRows, levelRows, callRows] = await db.batch<Record<string, number | string>>([
    db.prepare(`SELECT model, count(*) AS n FROM runs${runs.where} GROUP BY model`).bind(...runs.params),
    db
      .prepare(
        `SELECT model, count(*) AS attempted, sum(solved) AS solved, sum(solved AND NOT helped) AS alone, sum(solved AND helped) AS helped,
         sum(retries) AS retries, sum(pauses) AS pauses, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion, sum(cost_usd) AS cost
         FROM run_levels${levels.where} GROUP BY model`,
      )
      .bind(...levels.params),
    db
      .prepare(
        `WITH c AS (
           SELECT model, latency_ms AS v, error_class, ROW_NUMBER() OVER (PARTITION BY model ORDER BY latency_ms) AS r, COUNT(*) OVER (PARTITION BY model) AS n
           FROM llm_calls${calls.where})
         SELECT model, max(n) AS n, sum(error_class IS NOT NULL) AS errors,
           max(CASE WHEN r = max(1, (50 * n + 99) / 100) THEN v END) AS p50,
           max(CASE WHEN r = max(1, (95 * n + 99) / 100) THEN v END) AS p95,
           max(CASE WHEN r = max(1, (99 * n + 99) / 100) THEN v END) AS p99
         FROM c GROUP BY model`,
      )
      .bind(...calls.params),
  ]);
  const byModel = new Map<string, ModelStats>();
  const of = (model: string): ModelStats => {
    let stats = byModel.get(model);
    if (!stats) {
      stats = {
        model, runs: 0, levelsAttempted: 0, levelsSolved: 0, solveRate: null, solvedAlone: 0, solvedWithHelp: 0, retries: 0, pauses: 0,
        tokens: { prompt: 0, completion: 0 }, costUsd: 0, modelCalls: { count: 0, errors: 0, errorRate: null, latencyMs: { p50: null, p95: null, p99: null } },
      };
      byModel.set(model, stats);
    }
    return stats;
  };
  for (const r of runRows!.results as { model: string; n: number }[]) of(r.model).runs = r.n;
  for (const r of levelRows!.results as LevelRow[]) {
    Object.assign(of(r.model), {
      levelsAttempted: r.attempted, levelsSolved: r.solved, solveRate: r.attempted ? r.solved / r.attempted : null, solvedAlone: r.alone, solvedWithHelp: r.helped,
      retries: r.retries, pauses: r.pauses, tokens: { prompt: r.prompt, completion: r.completion }, costUsd: r.cost,
    });
  }
  for (const r of callRows!.results as CallRow[]) {
    of(r.model).modelCalls = { count: r.n, errors: r.errors, errorRate: r.n ? r.errors / r.n : null, latencyMs: { p50: r.p50, p95: r.p95, p99: r.p99 } };
  }
  return { models: [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model)) };
}
