// GET /api/analytics/limits: how many runs (and levels) ended at each limit — a cap, the retries, a stop,
// a failure — from the limit_reason columns the one fold fills (schema/budget.ts LIMIT_REASONS).
import type { AnalyticsLimits, AnalyticsQuery } from '../../schema/analytics.ts';
import type { LimitReason } from '../../schema/budget.ts';
import { LIMIT_TEXT } from '../../schema/budget.ts';
import { filterSql } from './filter-sql.ts';

type Row = { reason: LimitReason; n: number };

export async function analyticsLimits(db: D1Database, query: AnalyticsQuery): Promise<AnalyticsLimits> {
  const runs = filterSql(query, { time: 'created_at', model: 'model', target: 'target', runId: 'id' });
  const levels = filterSql(query, { time: 'started_at', model: 'model', level: 'level', target: 'target' });
  const and = (where: string) => (where ? `${where} AND` : ' WHERE');
  const [runRows, levelRows] = await db.batch<Row>([
    db
      .prepare(
        `SELECT limit_reason AS reason, count(*) AS n FROM runs${and(runs.where)} limit_reason IS NOT NULL GROUP BY limit_reason ORDER BY n DESC, reason`,
      )
      .bind(...runs.params),
    db
      .prepare(
        `SELECT limit_reason AS reason, count(*) AS n FROM run_levels${and(levels.where)} limit_reason IS NOT NULL GROUP BY limit_reason ORDER BY n DESC, reason`,
      )
      .bind(...levels.params),
  ]);
  const counted = (rows: Row[]) => rows.map((r) => ({ reason: r.reason, count: r.n, text: LIMIT_TEXT[r.reason] }));
  return { runs: counted(runRows!.results), levels: counted(levelRows!.results) };
}
