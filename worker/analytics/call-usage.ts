// Model-call counts, errors, tokens, cost and latency sums for a filter, read from the hourly roll-up
// (llm_hourly) for every whole hour of the window and from llm_calls only for the part-hours at its
// edges. So a query reads at most one row per hour, model, level and target, however many calls
// were made, and the answer is exact.
import type { AnalyticsQuery } from '../../schema/analytics.ts';
import { filterSql } from './filter-sql.ts';

const HOUR = 3_600_000;

/**
 * A subquery yielding (hour, model, level, calls, errors, prompt_tokens, completion_tokens, cost_usd,
 * latency_ms_sum) rows — several per hour and model, to be summed — and its parameters.
 */
export function callUsage(query: AnalyticsQuery): { sql: string; params: (string | number)[] } {
  const from = query.from ? Date.parse(query.from) : null;
  const to = query.to ? Date.parse(query.to) : null;
  // Whole hours: [firstHour, endHour). Raw rows cover [from, firstHour) and [endHour, to).
  const firstHour = from === null ? null : Math.ceil(from / HOUR) * HOUR;
  const endHour = to === null ? null : Math.floor(to / HOUR) * HOUR;
  const inOneHour = firstHour !== null && endHour !== null && endHour < firstHour;
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const rollupWhere = filterSql(
    { ...query, from: undefined, to: undefined },
    { time: 'hour', model: 'model', level: 'level', target: 'target' },
  );
  const hourClauses = [...(firstHour === null ? [] : ['hour >= ?']), ...(endHour === null ? [] : ['hour < ?'])];
  if (!inOneHour) {
    const where = [rollupWhere.where.replace(/^ WHERE /, ''), ...hourClauses].filter(Boolean).join(' AND ');
    parts.push(
      `SELECT hour, model, level, calls, errors, prompt_tokens, completion_tokens, cost_usd, latency_ms_sum FROM llm_hourly${where ? ` WHERE ${where}` : ''}`,
    );
    params.push(
      ...rollupWhere.params,
      ...(firstHour === null ? [] : [firstHour]),
      ...(endHour === null ? [] : [endHour]),
    );
  }
  const edges: [number, number][] = inOneHour
    ? [[from!, to!]]
    : [
        ...(from !== null && from < firstHour!
          ? [[from, Math.min(firstHour!, to ?? Infinity)] as [number, number]]
          : []),
        ...(to !== null && endHour! < to ? [[Math.max(endHour!, from ?? -Infinity), to] as [number, number]] : []),
      ];
  for (const [start, end] of edges) {
    const raw = filterSql(
      { ...query, from: new Date(start).toISOString(), to: new Date(end).toISOString() },
      { time: 'created_at', model: 'model', level: 'level' },
    );
    parts.push(
      `SELECT (created_at / ${HOUR}) * ${HOUR} AS hour, model, level, 1 AS calls, error_class IS NOT NULL AS errors, prompt_tokens, completion_tokens,
       coalesce(cost_usd, 0) AS cost_usd, latency_ms AS latency_ms_sum FROM llm_calls${raw.where}`,
    );
    params.push(...raw.params);
  }
  return { sql: `(${parts.join(' UNION ALL ')})`, params };
}
