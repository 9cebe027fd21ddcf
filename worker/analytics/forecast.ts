// The forecast's history (docs/budgets.md#forecast): per model and level, the nearest-rank median and
// p90 of the cost and the time of every level a past run played to its end, from run_levels. One
// statement per model, all in one batch; the percentiles are picked in SQL by the shared rank rule.
import type { ForecastRequest } from '../../schema/forecast-request.ts';
import type { Forecast, LevelForecast } from '../../schema/forecast.ts';
import { batchForecast, FORECAST_POINTS, modelForecast } from '../../schema/forecast.ts';
import { nearestRankSql } from '../../schema/nearest-rank.ts';
import { FINAL_STATUSES, REPLAY_MODEL } from '../../schema/run.ts';

type LevelRow = {
  level: number;
  runs: number;
  cost_median: number;
  cost_p90: number;
  ms_median: number;
  ms_p90: number;
};

const at = (rank: string, percent: number) => `max(CASE WHEN ${rank} = ${nearestRankSql(percent, 'n')} THEN`;
const { median, p90 } = FORECAST_POINTS;

// A level counts once it was played to its end: solved (its time is start to proof), or left unsolved by
// a run that has ended (its time is the level's start to the run's end). A level still in progress, a run
// with no end time, and the batch being forecast (its own runs) never count. Only the unsolved levels look
// up their run (at 10,000 runs, 5 models × 6 levels: 183 ms against 282 ms for joining every row, sqlite3 on
// the bench seed; a covering index would save another 17%, not worth its cost to every level's write).
const HISTORY_SQL = `
WITH played AS (
  SELECT l.level AS level, l.cost_usd AS cost, max(0, l.ended_at - l.started_at) AS ms
  FROM run_levels l
  WHERE l.model = ?1 AND l.target = ?2 AND l.level BETWEEN ?3 AND ?4 AND l.solved
    AND l.run_id NOT IN (SELECT id FROM runs WHERE batch_id = ?5)
  UNION ALL
  SELECT l.level, l.cost_usd, max(0, r.ended_at - l.started_at)
  FROM run_levels l JOIN runs r ON r.id = l.run_id
  WHERE l.model = ?1 AND l.target = ?2 AND l.level BETWEEN ?3 AND ?4 AND NOT l.solved
    AND (r.batch_id IS NULL OR r.batch_id <> ?5) AND r.status IN (${FINAL_STATUSES.map((_, i) => `?${6 + i}`).join(', ')})
),
ranked AS (
  SELECT level, cost, ms,
    row_number() OVER (PARTITION BY level ORDER BY cost, ms) AS cost_rank,
    row_number() OVER (PARTITION BY level ORDER BY ms, cost) AS ms_rank,
    count(*) OVER (PARTITION BY level) AS n
  FROM played WHERE ms IS NOT NULL
)
SELECT level, max(n) AS runs,
  ${at('cost_rank', median)} cost END) AS cost_median, ${at('cost_rank', p90)} cost END) AS cost_p90,
  ${at('ms_rank', median)} ms END) AS ms_median, ${at('ms_rank', p90)} ms END) AS ms_p90
FROM ranked GROUP BY level ORDER BY level`;

/** The forecast for a request from D1's history; `excludeBatch` leaves a batch's own runs out of it. */
export async function forecastFrom(
  db: D1Database,
  request: ForecastRequest,
  excludeBatch: string | null = null,
): Promise<Forecast> {
  const { target, startLevel, endLevel } = request;
  // Verification runs replay another run's commands: what they spend says nothing about a model.
  const asked = request.models.filter((m) => m !== REPLAY_MODEL);
  const statements = asked.map((model) =>
    db.prepare(HISTORY_SQL).bind(model, target, startLevel, endLevel, excludeBatch ?? '', ...FINAL_STATUSES),
  );
  const answers = statements.length ? await db.batch<LevelRow>(statements) : [];
  const rowsOf = new Map(asked.map((model, i) => [model, answers[i]?.results ?? []]));
  const models = request.models.map((model) => {
    const byLevel = new Map((rowsOf.get(model) ?? []).map((r) => [r.level, r]));
    const levels: LevelForecast[] = [];
    for (let level = startLevel; level <= endLevel; level++) {
      const r = byLevel.get(level);
      levels.push(
        r
          ? {
              level,
              runs: r.runs,
              costUsd: { median: r.cost_median, p90: r.cost_p90 },
              wallSeconds: { median: r.ms_median / 1000, p90: r.ms_p90 / 1000 },
            }
          : { level, runs: 0, costUsd: null, wallSeconds: null },
      );
    }
    return modelForecast(model, levels, request.repeats);
  });
  return batchForecast(request, models);
}
