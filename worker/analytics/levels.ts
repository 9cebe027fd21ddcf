// GET /api/analytics/levels: the models × levels matrix from the run_levels roll-up: runs, solves
// alone and with a person's help, attempts, retries, pauses, median commands and time to solve,
// tokens and cost. One query, grouped in SQLite, with medians from window functions.
import type { AnalyticsLevels, AnalyticsQuery } from '../../schema/analytics.ts';
import { filterSql } from './filter-sql.ts';

type Row = {
  model: string; level: number; runs: number; solved: number; alone: number; helped: number; attempts: number; retries: number;
  pauses: number; tokens: number; cost: number; median_commands: number | null; median_ms: number | null;
};

export async function analyticsLevels(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsLevels> {
  const { where, params } = filterSql(query, { time: 'started_at', model: 'model', target: 'target', level: 'level' });
  // A median is the mean of the middle one or two of a group's solved rows, by rank.
  const sql = `
    WITH base AS (SELECT * FROM run_levels${where}),
    solved AS (
      SELECT model, level, commands, ended_at - started_at AS ms,
        ROW_NUMBER() OVER (PARTITION BY model, level ORDER BY commands) AS by_commands,
        ROW_NUMBER() OVER (PARTITION BY model, level ORDER BY ended_at - started_at) AS by_time,
        COUNT(*) OVER (PARTITION BY model, level) AS n
      FROM base WHERE solved = 1),
    medians AS (
      SELECT model, level,
        avg(CASE WHEN by_commands IN ((n + 1) / 2, (n + 2) / 2) THEN commands END) AS median_commands,
        avg(CASE WHEN by_time IN ((n + 1) / 2, (n + 2) / 2) THEN ms END) AS median_ms
      FROM solved GROUP BY model, level)
    SELECT b.model, b.level, count(*) AS runs, sum(b.solved) AS solved, sum(b.solved AND NOT b.helped) AS alone,
      sum(b.solved AND b.helped) AS helped, sum(b.attempts) AS attempts, sum(b.retries) AS retries, sum(b.pauses) AS pauses,
      sum(b.prompt_tokens + b.completion_tokens) AS tokens, sum(b.cost_usd) AS cost, m.median_commands, m.median_ms
    FROM base b LEFT JOIN medians m ON m.model = b.model AND m.level = b.level
    GROUP BY b.model, b.level ORDER BY b.model, b.level`;
  const rows = (await db.prepare(sql).bind(...params).all<Row>()).results;
  return {
    cells: rows.map((r) => ({
      model: r.model,
      level: r.level,
      runs: r.runs,
      solved: r.solved,
      solveRate: r.solved / r.runs,
      solvedAlone: r.alone,
      solvedWithHelp: r.helped,
      attempts: r.attempts,
      retries: r.retries,
      pauses: r.pauses,
      medianCommandsToSolve: r.median_commands,
      medianTimeToSolveMs: r.median_ms,
      tokens: r.tokens,
      costUsd: r.cost,
    })),
  };
}
