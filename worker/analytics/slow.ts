// GET /api/analytics/slow: node executions over a threshold, slowest first, each with the time its
// model calls took (the calls recorded between the previous node and this one in the run) and the
// rest, the overhead: "overhead = duration − model latency".
import type { AnalyticsSlow, SlowQuery } from '../../schema/analytics.ts';
import { filterSql } from './filter-sql.ts';

type Row = {
  run_id: string;
  seq: number;
  node: string;
  level: number;
  model: string;
  duration_ms: number;
  model_ms: number;
  at: number;
};

export async function analyticsSlow(db: D1Database, query: SlowQuery): Promise<AnalyticsSlow> {
  const { where, params } = filterSql(query, {
    time: 'e.started_at',
    model: 'r.model',
    level: 'e.level',
    target: 'r.target',
  });
  const sql = `
    SELECT e.run_id, e.seq, e.node, e.level, r.model, e.duration_ms, e.started_at AS at,
      (SELECT coalesce(sum(c.latency_ms), 0) FROM llm_calls c
        WHERE c.run_id = e.run_id AND c.seq < e.seq
          AND c.seq > coalesce((SELECT max(p.seq) FROM executions p WHERE p.run_id = e.run_id AND p.seq < e.seq), 0)) AS model_ms
    FROM executions e JOIN runs r ON r.id = e.run_id
    ${where ? `${where} AND` : 'WHERE'} e.duration_ms > ?
    ORDER BY e.duration_ms DESC, e.run_id, e.seq LIMIT ?`;
  const rows = (
    await db
      .prepare(sql)
      .bind(...params, query.overMs, query.limit)
      .all<Row>()
  ).results;
  return {
    executions: rows.map((r) => ({
      runId: r.run_id,
      seq: r.seq,
      node: r.node,
      level: r.level,
      model: r.model,
      durationMs: r.duration_ms,
      modelMs: r.model_ms,
      overheadMs: Math.max(0, r.duration_ms - r.model_ms),
      at: new Date(r.at).toISOString(),
      link: `/run?id=${r.run_id}#seq-${r.seq}`,
    })),
  };
}
