// GET /api/board: models × levels — solved alone, solved after a person helped, not solved — and one row per
// model, level set and world (schema/level-sets.ts, schema/worlds.ts; two never merge) with its totals, the spread across its runs,
// its rates with their interval and the medians per solved level. From the D1 index: run_levels for the cells,
// runs for the totals; sums of squares give each spread in SQL, without reading every run into the worker.
import { outcomeCountsOf, outcomeSql } from '../../schema/level-outcome.ts';
import type { Board, BoardCell, BoardModel, BoardQuery } from '../../schema/board.ts';
import type { LimitReason } from '../../schema/budget.ts';
import { passAtList, wilson95 } from '../../schema/board-stats.ts';
import type { Target } from '../../schema/levels.ts';
import { unrecordedLevelSet } from '../../schema/level-sets.ts';
import type { RecordedWorld } from '../../schema/worlds.ts';
import { mediansOf, NO_MEDIANS } from './board-medians.ts';

type Filter = { where: string; params: (string | number)[] };

/** The runs the board covers, as a WHERE on the runs table. */
function runFilter(query: BoardQuery): Filter {
  // Forks start from another run's step: not a trial of their own, so never on the board (docs/forks.md).
  const clauses: string[] = ['parent_id IS NULL'];
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
  return { where: ` WHERE ${clauses.join(' AND ')}`, params };
}

/** A row's model and where it was measured; level_set and world are null only on a row written without them. */
type Measured = { model: string; level_set: string | null; world: RecordedWorld | null; target: Target };
type CellRow = Measured & { level: number; runs: number; alone: number; helped: number; not_solved: number };
type LevelTotals = Measured & { highest: number; solved: number; alone: number; commands: number };
type RunTotals = Measured & {
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
  // Without a filter the cells read run_levels alone (a fork writes no rows there): in index order.
  const levels =
    runs.params.length > 0
      ? { where: ` WHERE run_id IN (SELECT id FROM runs${runs.where})`, params: runs.params }
      : { where: '', params: [] };
  const limited = `${runs.where} AND limit_reason IS NOT NULL`;
  // Every grouping is by model, level set and world (run_levels_board_idx): rows on two level sets, or of a shared and a
  // private world, never merge.
  const [cellRows, levelRows, runRows, limitRows] = await db.batch<Record<string, number | string>>([
    db
      .prepare(
        `SELECT model, level_set, world, min(target) AS target, level, count(*) AS runs, coalesce(sum(${outcomeSql.alone}), 0) AS alone, coalesce(sum(${outcomeSql.helped}), 0) AS helped, sum(NOT solved) AS not_solved, ${outcomeSql.sums}
         FROM run_levels${levels.where} GROUP BY model, level_set, world, level ORDER BY model, level_set, world, level`,
      )
      .bind(...levels.params),
    db
      .prepare(
        `SELECT model, level_set, world, max(level) AS highest, sum(solved) AS solved, coalesce(sum(${outcomeSql.alone}), 0) AS alone, sum(commands) AS commands FROM run_levels${levels.where} GROUP BY model, level_set, world`,
      )
      .bind(...levels.params),
    db
      .prepare(
        `SELECT model, level_set, world, min(target) AS target, count(*) AS runs, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion,
         sum(cost_usd) AS cost, sum(cost_usd * cost_usd) AS cost_sq, min(cost_usd) AS cost_min, max(cost_usd) AS cost_max,
         sum(levels_solved) AS solved, sum(levels_solved * levels_solved) AS solved_sq, min(levels_solved) AS solved_min, max(levels_solved) AS solved_max,
         sum(CASE WHEN started_at IS NULL THEN 0 ELSE coalesce(ended_at, ?) - started_at END) AS wall_ms
         FROM runs${runs.where} GROUP BY model, level_set, world`,
      )
      .bind(now, ...runs.params),
    // Why runs ended short, by the one list of limit reasons (runs_limit_idx).
    db
      .prepare(
        `SELECT model, level_set, world, limit_reason, count(*) AS n FROM runs${limited} GROUP BY model, level_set, world, limit_reason`,
      )
      .bind(...runs.params),
  ]);
  // Rows join by model, level set and world as D1 holds them (null only for a row written without one).
  const key = (r: { model: string; level_set: string | null; world: string | null }) =>
    `${r.model}\u0000${r.level_set ?? ''}\u0000${r.world ?? ''}`;
  const limits = new Map<string, Partial<Record<LimitReason, number>>>();
  for (const r of limitRows!.results as (Measured & { limit_reason: LimitReason; n: number })[])
    limits.set(key(r), { ...limits.get(key(r)), [r.limit_reason]: r.n });
  const cellList = cellRows!.results as CellRow[];
  const rowList = levelRows!.results as LevelTotals[];
  // The medians, read along the index of solved levels once the groups and their sizes are known.
  const medians = await mediansOf(db, levels, [
    ...cellList.map((r) => ({ ...r, solved: r.runs - r.not_solved })),
    ...rowList.map(({ model, level_set, world, solved }) => ({ model, level_set, world, solved })),
  ]);
  const rowMedian = new Map(rowList.map((r, i) => [key(r), medians[cellList.length + i]!]));
  const cells: BoardCell[] = cellList.map((r, i) => ({
    model: r.model,
    target: r.target,
    levelSet: r.level_set ?? unrecordedLevelSet(r.target),
    world: r.world ?? 'unrecorded',
    level: r.level,
    runs: r.runs,
    alone: r.alone,
    helped: r.helped,
    notSolved: r.not_solved,
    outcomes: outcomeCountsOf(r),
    aloneRate: wilson95(r.alone, r.runs),
    solvedRate: wilson95(r.runs - r.not_solved, r.runs),
    passAt: passAtList(r.runs, r.runs - r.not_solved),
    ...medians[i]!,
  }));
  // A row's levels reached, over all its runs: the n of its rate of levels solved alone.
  const reached = new Map<string, number>();
  for (const r of cellList) reached.set(key(r), (reached.get(key(r)) ?? 0) + r.runs);
  const byRow = new Map(rowList.map((r) => [key(r), r]));
  const models: BoardModel[] = (runRows!.results as RunTotals[]).map((r) => {
    const l = byRow.get(key(r));
    const solved = l?.solved ?? 0;
    return {
      model: r.model,
      target: r.target,
      levelSet: r.level_set ?? unrecordedLevelSet(r.target),
      world: r.world ?? 'unrecorded',
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
      limits: limits.get(key(r)) ?? {},
      aloneRate: wilson95(l?.alone ?? 0, reached.get(key(r)) ?? 0),
      solvedRate: wilson95(solved, reached.get(key(r)) ?? 0),
      ...(rowMedian.get(key(r)) ?? NO_MEDIANS),
    };
  });
  // Most levels solved alone per run first, then most solved; ties go to the cheaper model.
  const aloneRate = (m: BoardModel) => (m.runs ? m.levelsSolvedAlone / m.runs : 0);
  models.sort(
    (a, b) =>
      aloneRate(b) - aloneRate(a) ||
      b.levelsSolvedPerRun.mean - a.levelsSolvedPerRun.mean ||
      a.costPerRun.mean - b.costPerRun.mean ||
      a.model.localeCompare(b.model) ||
      a.levelSet.localeCompare(b.levelSet) ||
      a.world.localeCompare(b.world),
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
