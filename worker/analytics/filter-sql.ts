// The WHERE clause every analytics query shares, built from the validated filters with bound
// parameters (never string-spliced values).
import type { AnalyticsQuery } from '../../schema/analytics.ts';

/** Which column of the queried table carries each filter; a missing one is filtered through runs. */
export type FilterColumns = { time: string; model: string; level?: string; target?: string; runId?: string };

/** ` WHERE …` (or '') and its parameters. */
export function filterSql(
  query: AnalyticsQuery,
  columns: FilterColumns,
): { where: string; params: (string | number)[] } {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (query.from) {
    clauses.push(`${columns.time} >= ?`);
    params.push(Date.parse(query.from));
  }
  if (query.to) {
    clauses.push(`${columns.time} < ?`);
    params.push(Date.parse(query.to));
  }
  if (query.model) {
    clauses.push(`${columns.model} = ?`);
    params.push(query.model);
  }
  if (query.target) {
    clauses.push(
      columns.target
        ? `${columns.target} = ?`
        : `${columns.runId ?? 'run_id'} IN (SELECT id FROM runs WHERE target = ?)`,
    );
    params.push(query.target);
  }
  if (query.level !== undefined && columns.level) {
    clauses.push(`${columns.level} = ?`);
    params.push(query.level);
  }
  return { where: clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '', params };
}
