// The board's medians per solved level (issue 32): time from a level's start to its proof, and what the run spent
// at it, for each cell (model, level set, level) and each row (model, level set) over all its solved levels.
// Nearest rank (schema/nearest-rank.ts), as the forecast reads the same rows; one windowed query per grouping.
import { nearestRankSql } from '../../schema/nearest-rank.ts';
import type { BoardCell } from '../../schema/board.ts';

type Filter = { where: string; params: (string | number)[] };
export type Medians = Pick<BoardCell, 'medianSolveMs' | 'medianSolveCostUsd'>;
type MedianRow = { model: string; level_set: string | null; level?: number; ms: number | null; cost: number | null };

const MEDIAN = nearestRankSql(50, 'n');

/** The statement for medians grouped by `by` (the columns after model and level set). */
function mediansSql(by: readonly string[], filter: Filter): string {
  const partition = ['model', 'level_set', ...by].join(', ');
  const solved = `${filter.where ? `${filter.where} AND` : ' WHERE'} solved AND ended_at IS NOT NULL`;
  return `
WITH ranked AS (
  SELECT ${partition}, ended_at - started_at AS ms, cost_usd AS cost,
    row_number() OVER (PARTITION BY ${partition} ORDER BY ended_at - started_at) AS ms_rank,
    row_number() OVER (PARTITION BY ${partition} ORDER BY cost_usd) AS cost_rank,
    count(*) OVER (PARTITION BY ${partition}) AS n
  FROM run_levels${solved}
)
SELECT ${partition}, max(CASE WHEN ms_rank = ${MEDIAN} THEN ms END) AS ms, max(CASE WHEN cost_rank = ${MEDIAN} THEN cost END) AS cost
FROM ranked GROUP BY ${partition}`;
}

/** The two statements (per cell, per row), to run in the board's D1 batch. */
export function medianStatements(db: D1Database, filter: Filter): [D1PreparedStatement, D1PreparedStatement] {
  return [
    db.prepare(mediansSql(['level'], filter)).bind(...filter.params),
    db.prepare(mediansSql([], filter)).bind(...filter.params),
  ];
}

/** The medians by key, from one of the statements' results. */
export function mediansBy(rows: readonly MedianRow[], key: (row: MedianRow) => string): Map<string, Medians> {
  return new Map(rows.map((r) => [key(r), { medianSolveMs: r.ms, medianSolveCostUsd: r.cost }]));
}

/** What a cell or row shows when it solved nothing. */
export const NO_MEDIANS: Medians = { medianSolveMs: null, medianSolveCostUsd: null };
