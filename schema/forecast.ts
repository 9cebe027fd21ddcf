// Cost and time forecasts (issue 31): before a batch or a run starts, what it is likely to spend,
// from past runs of the same model, target and levels. The request, the answer, the sums, and what
// the batch's runs actually spent, for the board's forecast-against-actual. The request is in
// forecast-request.ts (it reuses the batch's fields, and board.ts's batch carries these shapes).
import { z } from 'zod';
import type { ForecastRequest } from './forecast-request.ts';
import { targetSchema } from './levels.ts';
import type { RunListItem } from './run.ts';
import { FINAL_STATUSES } from './run.ts';

/** The percentiles a forecast gives: the median and a high estimate. */
export const FORECAST_POINTS = { median: 50, p90: 90 } as const;

/** A median and a p90 (nearest rank, schema/nearest-rank.ts). */
export const estimateSchema = z.object({ median: z.number().min(0), p90: z.number().min(0) });
export type Estimate = z.infer<typeof estimateSchema>;

/** One level of one model: null figures and runs 0 mean "no history". */
export const levelForecastSchema = z.object({
  level: z.number().int(),
  /** Past runs that played the level to its end, which the figures rest on. */
  runs: z.number().int().min(0),
  costUsd: estimateSchema.nullable(),
  wallSeconds: estimateSchema.nullable(),
});
export type LevelForecast = z.infer<typeof levelForecastSchema>;

/** Cost and time together. */
export const spendEstimateSchema = z.object({ costUsd: estimateSchema, wallSeconds: estimateSchema });
export type SpendEstimate = z.infer<typeof spendEstimateSchema>;

export const modelForecastSchema = z.object({
  model: z.string(),
  levels: z.array(levelForecastSchema),
  /** One run: the medians summed and the p90s summed, over the levels that have history. */
  perRun: spendEstimateSchema,
  /** Levels with no history: not in the sums, so the forecast is low by whatever they cost. */
  levelsWithoutHistory: z.number().int().min(0),
  /** perRun × repeats. */
  total: spendEstimateSchema,
});
export type ModelForecast = z.infer<typeof modelForecastSchema>;

/** POST /api/forecast, and the forecast stored with a batch. */
export const forecastSchema = z.object({
  target: targetSchema,
  startLevel: z.number().int(),
  endLevel: z.number().int(),
  repeats: z.number().int().min(1),
  models: z.array(modelForecastSchema),
  /** Every model's total summed: the batch's. Wall seconds are run-seconds, summed over runs that may overlap. */
  total: spendEstimateSchema,
  /** Levels × models with no history, over the whole batch. */
  levelsWithoutHistory: z.number().int().min(0),
});
export type Forecast = z.infer<typeof forecastSchema>;

/** A batch's forecast as stored when it was made. */
export const storedForecastSchema = z.object({ createdAt: z.iso.datetime(), forecast: forecastSchema });
export type StoredForecast = z.infer<typeof storedForecastSchema>;

/** What one model's runs of a batch have spent so far. */
export const actualSpendSchema = z.object({
  model: z.string(),
  runs: z.number().int().min(0),
  /** Runs that have ended; the figures are final once done equals runs. */
  done: z.number().int().min(0),
  costUsd: z.number().min(0),
  /** Summed over the runs, each from its start to its end (or to now). */
  wallSeconds: z.number().min(0),
});
export type ActualSpend = z.infer<typeof actualSpendSchema>;

const zero = (): Estimate => ({ median: 0, p90: 0 });
const add = (a: Estimate, b: Estimate, times = 1): Estimate => ({
  median: a.median + b.median * times,
  p90: a.p90 + b.p90 * times,
});

/** A model's forecast from its levels' figures: sums over levels with history, times repeats. */
export function modelForecast(model: string, levels: readonly LevelForecast[], repeats: number): ModelForecast {
  let cost = zero();
  let wall = zero();
  for (const l of levels) {
    if (l.costUsd) cost = add(cost, l.costUsd);
    if (l.wallSeconds) wall = add(wall, l.wallSeconds);
  }
  return {
    model,
    levels: [...levels],
    perRun: { costUsd: cost, wallSeconds: wall },
    levelsWithoutHistory: levels.filter((l) => l.runs === 0).length,
    total: { costUsd: add(zero(), cost, repeats), wallSeconds: add(zero(), wall, repeats) },
  };
}

/** The batch's forecast: its models' forecasts and their totals summed. */
export function batchForecast(request: ForecastRequest, models: readonly ModelForecast[]): Forecast {
  const { target, startLevel, endLevel, repeats } = request;
  return {
    target,
    startLevel,
    endLevel,
    repeats,
    models: [...models],
    total: {
      costUsd: models.reduce((sum, m) => add(sum, m.total.costUsd), zero()),
      wallSeconds: models.reduce((sum, m) => add(sum, m.total.wallSeconds), zero()),
    },
    levelsWithoutHistory: models.reduce((sum, m) => sum + m.levelsWithoutHistory, 0),
  };
}

/** What each model's runs of a batch have spent: cost, and time from each run's start to its end (or now). */
export function actualSpend(runs: readonly RunListItem[], now: number): ActualSpend[] {
  const byModel = new Map<string, ActualSpend>();
  for (const run of runs) {
    const model = run.config.model;
    const a = byModel.get(model) ?? { model, runs: 0, done: 0, costUsd: 0, wallSeconds: 0 };
    const started = run.startedAt ? Date.parse(run.startedAt) : null;
    const ended = run.endedAt ? Date.parse(run.endedAt) : now;
    byModel.set(model, {
      model,
      runs: a.runs + 1,
      done: a.done + (FINAL_STATUSES.includes(run.status) ? 1 : 0),
      costUsd: a.costUsd + run.costUsd,
      wallSeconds: a.wallSeconds + (started === null ? 0 : Math.max(0, ended - started) / 1000),
    });
  }
  return [...byModel.values()];
}
