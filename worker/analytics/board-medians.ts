// The board's medians per solved level (issue 32): time from a level's start to its proof, and what the run spent
// at it, for each cell (model, level set, world, level) and each row (model, level set, world) over all its solved levels.
// Nearest rank (schema/nearest-rank.ts), as the forecast reads the same rows. The whole board: each median is one
// row read at an offset among its group's rows in the partial index of solved levels (run_levels_solves_idx; a
// cell's time in index order, the rest sorted within the group), as the levels analytics reads its medians (27 ms
// for every cell and row at 10,000 runs, where window functions over all solved rows took 340 ms). A filtered board (a batch, a target, a window) ranks its own runs' solved rows with window functions
// instead: each offset read would select the filtered runs again (292 ms against 163 ms for a week of practice).
// So does a whole board with more groups than MAX_OFFSET_READS allows: one real-server level set a day times every
// model and level would otherwise put thousands of statements in one D1 batch.
import { nearestRank, nearestRankSql } from '../../schema/nearest-rank.ts';
import type { BoardCell } from '../../schema/board.ts';

type Filter = { where: string; params: (string | number)[] };
export type Medians = Pick<BoardCell, 'medianSolveMs' | 'medianSolveCostUsd'>;
/** A cell (with its level) or a row (without), and how many solved levels it holds. */
export type MedianGroup = {
  model: string;
  level_set: string | null;
  world: string | null;
  level?: number;
  solved: number;
};

/** The most offset reads (two per group) put in one D1 batch; a board that needs more is ranked in SQL. */
export const MAX_OFFSET_READS = 500;

/** What a cell or row shows when it solved nothing. */
export const NO_MEDIANS: Medians = { medianSolveMs: null, medianSolveCostUsd: null };

/** The two statements (time, cost) that read a group's medians: the nearest-rank middle of its solved rows. */
function statements(db: D1Database, filter: Filter, group: MedianGroup): D1PreparedStatement[] {
  const level = group.level === undefined ? '' : ' AND level = ?';
  const where = `${filter.where ? `${filter.where} AND` : ' WHERE'} model = ? AND level_set IS ? AND world IS ?${level} AND solved AND ended_at IS NOT NULL`;
  const params = [
    ...filter.params,
    group.model,
    group.level_set,
    group.world,
    ...(group.level === undefined ? [] : [group.level]),
  ];
  const offset = nearestRank(50, group.solved) - 1;
  return ['ended_at - started_at', 'cost_usd'].map((order) =>
    db
      .prepare(`SELECT ${order} AS v FROM run_levels${where} ORDER BY ${order} LIMIT 1 OFFSET ?`)
      .bind(...params, offset),
  );
}

/** The statement for the medians of every group of `by` (the columns after model, level set and world), ranked in SQL. */
function rankedSql(by: readonly string[], filter: Filter): string {
  const partition = ['model', 'level_set', 'world', ...by].join(', ');
  const median = nearestRankSql(50, 'n');
  return `
WITH ranked AS (
  SELECT ${partition}, ended_at - started_at AS ms, cost_usd AS cost,
    row_number() OVER (PARTITION BY ${partition} ORDER BY ended_at - started_at) AS ms_rank,
    row_number() OVER (PARTITION BY ${partition} ORDER BY cost_usd) AS cost_rank,
    count(*) OVER (PARTITION BY ${partition}) AS n
  FROM run_levels${filter.where ? `${filter.where} AND` : ' WHERE'} solved AND ended_at IS NOT NULL
)
SELECT ${partition}, max(CASE WHEN ms_rank = ${median} THEN ms END) AS ms, max(CASE WHEN cost_rank = ${median} THEN cost END) AS cost
FROM ranked GROUP BY ${partition}`;
}

type RankedRow = {
  model: string;
  level_set: string | null;
  world: string | null;
  level?: number;
  ms: number | null;
  cost: number | null;
};

/** A filtered board's medians: two windowed statements, cells and rows. */
async function rankedMedians(db: D1Database, filter: Filter, groups: readonly MedianGroup[]): Promise<Medians[]> {
  const [cells, rows] = await db.batch<RankedRow>([
    db.prepare(rankedSql(['level'], filter)).bind(...filter.params),
    db.prepare(rankedSql([], filter)).bind(...filter.params),
  ]);
  const key = (g: { model: string; level_set: string | null; world: string | null; level?: number }) =>
    `${g.model}\u0000${g.level_set ?? ''}\u0000${g.world ?? ''}\u0000${g.level ?? ''}`;
  const found = new Map(
    [...cells!.results, ...rows!.results].map((r) => [key(r), { medianSolveMs: r.ms, medianSolveCostUsd: r.cost }]),
  );
  return groups.map((g) => found.get(key(g)) ?? NO_MEDIANS);
}

/** Every group's medians, in one D1 batch; a group with no solved level gets none. `maxReads`: for tests. */
export async function mediansOf(
  db: D1Database,
  filter: Filter,
  groups: readonly MedianGroup[],
  maxReads = MAX_OFFSET_READS,
): Promise<Medians[]> {
  const solved = groups.filter((g) => g.solved > 0);
  if (filter.where || 2 * solved.length > maxReads) return rankedMedians(db, filter, groups);
  const results = solved.length
    ? await db.batch<{ v: number | null }>(solved.flatMap((g) => statements(db, filter, g)))
    : [];
  const byGroup = new Map(
    solved.map((g, i) => [
      g,
      {
        medianSolveMs: results[2 * i]!.results[0]?.v ?? null,
        medianSolveCostUsd: results[2 * i + 1]!.results[0]?.v ?? null,
      },
    ]),
  );
  return groups.map((g) => byGroup.get(g) ?? NO_MEDIANS);
}
