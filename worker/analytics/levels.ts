// GET /api/analytics/levels: the models × levels matrix from the run_levels roll-up: runs, solves
// alone and with a person's help, attempts, retries, pauses, median commands and time to solve,
// tokens and cost. The sums are one grouped query; each median is the middle one or two solved rows
// of its cell, read at an offset along an index (run_levels_commands_idx, run_levels_solve_ms_idx)
// rather than by sorting every row, which window functions did.
import { outcomeCountsOf, outcomeSql } from '../../schema/level-outcome.ts';
import type { AnalyticsLevels, AnalyticsQuery } from '../../schema/analytics.ts';
import type { PauseReason } from '../../schema/run.ts';
import { filterSql } from './filter-sql.ts';

type Row = {
  model: string;
  level: number;
  runs: number;
  solved: number;
  alone: number;
  helped: number;
  attempts: number;
  retries: number;
  pauses: number;
  tokens: number;
  cost: number;
};

/** A matrix cell's key. */
const cellKey = (cell: { model: string; level: number }) => `${cell.model}\u0000${cell.level}`;

/** The median of a cell's `n` solved rows ordered by `order`: the mean of the middle one or two. */
function median(db: D1Database, query: AnalyticsQuery, cell: Row, order: string): D1PreparedStatement {
  const { where, params } = filterSql(
    { ...query, model: cell.model, level: cell.level },
    { time: 'started_at', model: 'model', target: 'target', level: 'level' },
  );
  const n = cell.solved;
  return db
    .prepare(
      `SELECT avg(v) AS m FROM (SELECT ${order} AS v FROM run_levels${where} AND solved = 1 ORDER BY ${order} LIMIT ? OFFSET ?)`,
    )
    .bind(...params, 2 - (n % 2), Math.floor((n - 1) / 2));
}

export async function analyticsLevels(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsLevels> {
  const { where, params } = filterSql(query, { time: 'started_at', model: 'model', target: 'target', level: 'level' });
  const sql = `
    SELECT model, level, count(*) AS runs, sum(solved) AS solved, coalesce(sum(${outcomeSql.alone}), 0) AS alone, coalesce(sum(${outcomeSql.helped}), 0) AS helped,
      sum(attempts) AS attempts, sum(retries) AS retries, sum(pauses) AS pauses, sum(prompt_tokens + completion_tokens) AS tokens, sum(cost_usd) AS cost,
      ${outcomeSql.sums}
    FROM run_levels${where} GROUP BY model, level ORDER BY model, level`;
  // Only rows that paused are unpacked: reading the JSON of every row would cost more than the rest.
  const reasonsSql = `SELECT model, level, j.key AS reason, sum(j.value) AS n FROM run_levels, json_each(run_levels.pause_reasons) AS j
    ${where ? `${where} AND` : 'WHERE'} pauses > 0 GROUP BY model, level, reason`;
  const [grouped, reasonRows] = await db.batch<Record<string, string | number>>([
    db.prepare(sql).bind(...params),
    db.prepare(reasonsSql).bind(...params),
  ]);
  const rows = grouped!.results as Row[];
  const reasons = new Map<string, Partial<Record<PauseReason, number>>>();
  for (const r of reasonRows!.results as { model: string; level: number; reason: PauseReason; n: number }[]) {
    reasons.set(cellKey(r), { ...reasons.get(cellKey(r)), [r.reason]: r.n });
  }
  const solved = rows.filter((r) => r.solved > 0);
  // The expression matches run_levels_solve_ms_idx, so SQLite walks that index.
  const medians = solved.length
    ? await db.batch<{ m: number | null }>(
        solved.flatMap((r) => [median(db, query, r, 'commands'), median(db, query, r, '(ended_at - started_at)')]),
      )
    : [];
  const byCell = new Map(
    solved.map((r, i) => [
      cellKey(r),
      { commands: medians[2 * i]!.results[0]?.m ?? null, ms: medians[2 * i + 1]!.results[0]?.m ?? null },
    ]),
  );
  return {
    cells: rows.map((r) => {
      const m = byCell.get(cellKey(r));
      return {
        model: r.model,
        level: r.level,
        runs: r.runs,
        solved: r.solved,
        solveRate: r.solved / r.runs,
        solvedAlone: r.alone,
        solvedWithHelp: r.helped,
        outcomes: outcomeCountsOf(r),
        attempts: r.attempts,
        retries: r.retries,
        pauses: r.pauses,
        pausesByReason: reasons.get(cellKey(r)) ?? {},
        medianCommandsToSolve: m?.commands ?? null,
        medianTimeToSolveMs: m?.ms ?? null,
        tokens: r.tokens,
        costUsd: r.cost,
      };
    }),
  };
}
