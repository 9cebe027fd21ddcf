// GET /api/analytics/failures: failed model calls and graph nodes, newest first, each with its class,
// stage, message, the taxonomy's fix and a link to the run at that event; and the common failures
// grouped by class with counts.
import type { AnalyticsFailures, FailureRow, FailuresQuery } from '../../schema/analytics.ts';
import { LLM_FAILURES } from '../../schema/diagnose.ts';
import { FAILURE_CLASSES } from '../../schema/failures.ts';
import type { LlmErrorClass } from '../../schema/protocol.ts';
import { filterSql } from './filter-sql.ts';

type Row = {
  kind: 'model_call' | 'node';
  run_id: string;
  seq: number;
  level: number;
  model: string;
  stage: string;
  error_class: string;
  message: string | null;
  at: number;
};

/** The fix for a model call's error class, or for a node that failed (a bug). */
function fixFor(errorClass: string): string {
  const failure = LLM_FAILURES[errorClass as LlmErrorClass];
  return FAILURE_CLASSES[failure ?? 'run_failed'].fix;
}

export async function analyticsFailures(db: D1Database, query: FailuresQuery): Promise<AnalyticsFailures> {
  const calls = filterSql(query, { time: 'created_at', model: 'model', level: 'level' });
  const nodes = filterSql(query, { time: 'e.started_at', model: 'r.model', level: 'e.level', target: 'r.target' });
  const failures = `
    SELECT 'model_call' AS kind, run_id, seq, level, model, stage, error_class, json_extract(response, '$.error') AS message, created_at AS at
      FROM llm_calls${calls.where ? `${calls.where} AND` : ' WHERE'} error_class IS NOT NULL
    UNION ALL
    SELECT 'node' AS kind, e.run_id, e.seq, e.level, r.model, e.node AS stage, 'node_error' AS error_class, e.error AS message, e.started_at AS at
      FROM executions e JOIN runs r ON r.id = e.run_id${nodes.where ? `${nodes.where} AND` : ' WHERE'} e.status = 'error'`;
  const params = [...calls.params, ...nodes.params];
  // The cursor is "at:runId:seq" of the last row shown; the next page starts below it.
  const [at, run, seq] = query.cursor?.split(':') ?? [];
  const after = query.cursor ? ' WHERE at < ? OR (at = ? AND (run_id < ? OR (run_id = ? AND seq < ?)))' : '';
  const afterParams = query.cursor ? [Number(at), Number(at), run!, run!, Number(seq)] : [];
  const [page, grouped] = await db.batch<Row & { n: number }>([
    db
      .prepare(`SELECT * FROM (${failures})${after} ORDER BY at DESC, run_id DESC, seq DESC LIMIT ?`)
      .bind(...params, ...afterParams, query.limit + 1),
    db
      .prepare(`SELECT error_class, count(*) AS n FROM (${failures}) GROUP BY error_class ORDER BY n DESC, error_class`)
      .bind(...params),
  ]);
  const rows = page!.results as Row[];
  const shown = rows.slice(0, query.limit);
  const last = shown.at(-1);
  return {
    failures: shown.map(
      (r): FailureRow => ({
        kind: r.kind,
        runId: r.run_id,
        seq: r.seq,
        level: r.level,
        model: r.model,
        stage: r.stage,
        errorClass: r.error_class,
        message: r.message,
        fix: fixFor(r.error_class),
        at: new Date(r.at).toISOString(),
        link: `/run?id=${r.run_id}#seq-${r.seq}`,
      }),
    ),
    nextCursor: rows.length > query.limit && last ? `${last.at}:${last.run_id}:${last.seq}` : null,
    byClass: (grouped!.results as { error_class: string; n: number }[]).map((g) => ({
      errorClass: g.error_class,
      count: g.n,
      fix: fixFor(g.error_class),
    })),
  };
}
