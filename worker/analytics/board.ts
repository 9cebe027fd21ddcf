// GET /api/board: models × levels — solved alone, solved after a person helped, not solved — and
// one row per model with its totals and the spread across its runs. From the D1 index: run_levels
// for the cells, runs for the totals; sums of squares give each spread in SQL, without reading
// every run into the worker.
import { outcomeCountsOf, outcomeSql } from '../../schema/level-outcome.ts';
import type { Board, BoardCell, BoardModel, BoardQuery } from '../../schema/board.ts';
import type { LimitReason } from '../../schema/budget.ts';
import { passAtList, wilson95 } from '../../schema/board-stats.ts';

type Filter = { where: string; params: (string | number)[] };

/** The runs the board covers, as a WHERE on the runs table. */
function runFilter(query: BoardQuery): Filter {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (query.batch) {
    clauses.push('batch_id = ?');
    params.push(query.batch);
  }
  if (query.target) {
    clauses.push('target = ?');
    params.push(query.target);
  }
  if (query.from) {
    clauses.push('created_at >= ?');
    params.push(Date.parse(query.from));
  }
  if (query.to) {
    clauses.push('created_at < ?');
    params.push(Date.parse(query.to));
  }
  return { where: clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '', params };
}

type CellRow = { model: string; level: number; runs: number; alone: number; helped: number; not_solved: number };
type LevelTotals = { model: string; highest: number; solved: number; alone: number; commands: number };
type RunTotals = {
  model: string;
  runs: number;
  prompt: number;
  completion: number;
  cost: number;
  cost_sq: number;
  cost_min: number;
  cost_max: number;
  solved: number;
  solved_sq: number;
  solved_min: number;
  solved_max: number;
  wall_ms: number;
};

export async function board(db: D1Database, query: BoardQuery, now: number): Promise<Board> {
  const runs = runFilter(query);
  const levels = runs.where
    ? { where: ` WHERE run_id IN (SELECT id FROM runs${runs.where})`, params: runs.params }
    : { where: '', params: [] };
  const limited = `${runs.where ? `${runs.where} AND` : ' WHERE'} limit_reason IS NOT NULL`;
  const [cellRows, levelRows, runRows, limitRows] = await db.batch<Record<string, number | string>>([
    db
      .prepare(
        `SELECT model, level, count(*) AS runs, coalesce(sum(${outcomeSql.alone}), 0) AS alone, coalesce(sum(${outcomeSql.helped}), 0) AS helped, sum(NOT solved) AS not_solved, ${outcomeSql.sums}
         FROM run_levels${levels.where} GROUP BY model, level ORDER BY model, level`,
      )
      .bind(...levels.params),
    db
      .prepare(
        `SELECT model, max(level) AS highest, sum(solved) AS solved, coalesce(sum(${outcomeSql.alone}), 0) AS alone, sum(commands) AS commands FROM run_levels${levels.where} GROUP BY model`,
      )
      .bind(...levels.params),
    db
      .prepare(
        `SELECT model, count(*) AS runs, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion,
         sum(cost_usd) AS cost, sum(cost_usd * cost_usd) AS cost_sq, min(cost_usd) AS cost_min, max(cost_usd) AS cost_max,
         sum(levels_solved) AS solved, sum(levels_solved * levels_solved) AS solved_sq, min(levels_solved) AS solved_min, max(levels_solved) AS solved_max,
         sum(CASE WHEN started_at IS NULL THEN 0 ELSE coalesce(ended_at, ?) - started_at END) AS wall_ms
         FROM runs${runs.where} GROUP BY model`,
      )
      .bind(now, ...runs.params),
    // Why runs ended short, by the one list of limit reasons (runs_limit_idx).
    db
      .prepare(`SELECT model, limit_reason, count(*) AS n FROM runs${limited} GROUP BY model, limit_reason`)
      .bind(...runs.params),
  ]);
  const limits = new Map<string, Partial<Record<LimitReason, number>>>();
  for (const r of limitRows!.results as { model: string; limit_reason: LimitReason; n: number }[])
    limits.set(r.model, { ...limits.get(r.model), [r.limit_reason]: r.n });
  const cells: BoardCell[] = (cellRows!.results as CellRow[]).map((r) => ({
    model: r.model,
    level: r.level,
    runs: r.runs,
    alone: r.alone,
    helped: r.helped,
    notSolved: r.not_solved,
    outcomes: outcomeCountsOf(r),
    aloneRate: wilson95(r.alone, r.runs),
    solvedRate: wilson95(r.runs - r.not_solved, r.runs),
    passAt: passAtList(r.runs, r.runs - r.not_solved),
  }));
  // A model's levels reached, over all its runs: the n of its rate of levels solved alone.
  const reached = new Map<string, number>();
  for (const cell of cells) reached.set(cell.model, (reached.get(cell.model) ?? 0) + cell.runs);
  const byModel = new Map((levelRows!.results as LevelTotals[]).map((r) => [r.model, r]));
  const models: BoardModel[] = (runRows!.results as RunTotals[]).map((r) => {
    const l = byModel.get(r.model);
    const solved = l?.solved ?? 0;
    return {
      model: r.model,
      runs: r.runs,
      highestLevel: l?.highest ?? null,
      levelsSolved: solved,
      levelsSolvedAlone: l?.alone ?? 0,
      commands: l?.commands ?? 0,
      tokens: { prompt: r.prompt, completion: r.completion },
      costUsd: r.cost,
      costPerLevelSolved: solved > 0 ? r.cost / solved : null,
      wallTimeMs: r.wall_ms,
      levelsSolvedPerRun: spread(r.runs, r.solved, r.solved_sq, r.solved_min, r.solved_max),
      costPerRun: spread(r.runs, r.cost, r.cost_sq, r.cost_min, r.cost_max),
      limits: limits.get(r.model) ?? {},
      aloneRate: wilson95(l?.alone ?? 0, reached.get(r.model) ?? 0),
    };
  });
  // Most levels solved alone per run first, then most solved; ties go to the cheaper model.
  const aloneRate = (m: BoardModel) => (m.runs ? m.levelsSolvedAlone / m.runs : 0);
  models.sort(
    (a, b) =>
      aloneRate(b) - aloneRate(a) ||
      b.levelsSolvedPerRun.mean - a.levelsSolvedPerRun.mean ||
      a.costPerRun.mean - b.costPerRun.mean ||
      a.model.localeCompare(b.model),
  );
  const levelsCovered = [...new Set(cells.map((c) => c.level))].sort((a, b) => a - b);
  return { models, cells, levels: levelsCovered };
}

/** Mean, sample standard deviation and standard error from n, Σx and Σx². */
export function spread(
  n: number,
  sum: number,
  sumSq: number,
  min: number,
  max: number,
): BoardModel['levelsSolvedPerRun'] {
  const mean = n > 0 ? sum / n : 0;
  // Rounding can leave a hair below zero when every value is the same.
  const variance = n > 1 ? Math.max(0, (sumSq - (sum * sum) / n) / (n - 1)) : 0;
  const sd = Math.sqrt(variance);
  return { mean, sd, stderr: n > 0 ? sd / Math.sqrt(n) : 0, min: min ?? 0, max: max ?? 0 };
}
