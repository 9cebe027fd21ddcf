// GET /api/analytics/models: one row per model — runs, levels attempted and solved (alone or with a
// person's help), retries, pauses, tokens, cost, and its model calls' error rate and latency
// percentiles (nearest rank, from the (model, latency_ms) index in order). Counts come first, since
// each percentile's offset depends on its model's count.
import { outcomeSql } from '../../schema/level-outcome.ts';
import type { AnalyticsModels, AnalyticsQuery, ModelStats } from '../../schema/analytics.ts';
import { callUsage } from './call-usage.ts';
import { filterSql } from './filter-sql.ts';
import { latencyPercentiles } from './latency.ts';

type LevelRow = {
  model: string;
  attempted: number;
  solved: number;
  alone: number;
  helped: number;
  retries: number;
  pauses: number;
  prompt: number;
  completion: number;
  cost: number;
};
type CallRow = { model: string; n: number; errors: number };

export async function analyticsModels(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsModels> {
  const runs = filterSql({ ...query, level: undefined }, { time: 'created_at', model: 'model', target: 'target' });
  const levels = filterSql(query, { time: 'started_at', model: 'model', target: 'target', level: 'level' });
  const usage = callUsage(query);
  const [runRows, levelRows, callRows] = await db.batch<Record<string, number | string>>([
    db.prepare(`SELECT model, count(*) AS n FROM runs${runs.where} GROUP BY model`).bind(...runs.params),
    db
      .prepare(
        `SELECT model, count(*) AS attempted, sum(solved) AS solved, coalesce(sum(${outcomeSql.alone}), 0) AS alone, coalesce(sum(${outcomeSql.helped}), 0) AS helped,
         sum(retries) AS retries, sum(pauses) AS pauses, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion, sum(cost_usd) AS cost
         FROM run_levels${levels.where} GROUP BY model`,
      )
      .bind(...levels.params),
    db
      .prepare(`SELECT model, sum(calls) AS n, sum(errors) AS errors FROM ${usage.sql} GROUP BY model`)
      .bind(...usage.params),
  ]);
  const byModel = new Map<string, ModelStats>();
  const of = (model: string): ModelStats => {
    let stats = byModel.get(model);
    if (!stats) {
      stats = {
        model,
        runs: 0,
        levelsAttempted: 0,
        levelsSolved: 0,
        solveRate: null,
        solvedAlone: 0,
        solvedWithHelp: 0,
        retries: 0,
        pauses: 0,
        tokens: { prompt: 0, completion: 0 },
        costUsd: 0,
        modelCalls: { count: 0, errors: 0, errorRate: null, latencyMs: { p50: null, p95: null, p99: null } },
      };
      byModel.set(model, stats);
    }
    return stats;
  };
  for (const r of runRows!.results as { model: string; n: number }[]) of(r.model).runs = r.n;
  for (const r of levelRows!.results as LevelRow[]) {
    Object.assign(of(r.model), {
      levelsAttempted: r.attempted,
      levelsSolved: r.solved,
      solveRate: r.attempted ? r.solved / r.attempted : null,
      solvedAlone: r.alone,
      solvedWithHelp: r.helped,
      retries: r.retries,
      pauses: r.pauses,
      tokens: { prompt: r.prompt, completion: r.completion },
      costUsd: r.cost,
    });
  }
  const counted = callRows!.results as CallRow[];
  const latencies = await latencyPercentiles(
    db,
    query,
    counted.map((r) => ({ model: r.model, count: r.n })),
  );
  counted.forEach((r, i) => {
    of(r.model).modelCalls = {
      count: r.n,
      errors: r.errors,
      errorRate: r.n ? r.errors / r.n : null,
      latencyMs: latencies[i]!,
    };
  });
  return { models: [...byModel.values()].sort((a, b) => a.model.localeCompare(b.model)) };
}
