// Shapes of the analytics API: the filters every query takes and what each answers.
import { outcomeCountsSchema } from './level-outcome.ts';
import { z } from 'zod';
import { targetSchema } from './levels.ts';
import { pauseReasonSchema, runStatusSchema } from './run.ts';
import { limitReasonSchema } from './budget.ts';

/** ?from=&to=&model=&target=&level= — every analytics query takes these; all are optional. */
export const analyticsQuerySchema = z.strictObject({
  from: z.iso.datetime({ error: 'must be an ISO 8601 time such as 2026-11-01T00:00:00Z' }).optional(),
  to: z.iso.datetime({ error: 'must be an ISO 8601 time such as 2026-11-30T00:00:00Z' }).optional(),
  model: z.string().min(1).max(100).optional(),
  target: targetSchema.optional(),
  level: z.coerce.number().int('must be a whole number').min(0).max(40).optional(),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

const percentiles = z.object({ p50: z.number().nullable(), p95: z.number().nullable(), p99: z.number().nullable() });

/** GET /api/analytics/summary */
export const analyticsSummarySchema = z.object({
  runs: z.object({ total: z.number().int(), byStatus: z.partialRecord(runStatusSchema, z.number().int()) }),
  levels: z.object({
    attempted: z.number().int(),
    solved: z.number().int(),
    solveRate: z.number().nullable(),
    /** Solved with a hint or the person's password (docs/outcomes.md). */
    solvedWithHelp: z.number().int(),
    /** Every level row counted by how it ended. */
    outcomes: outcomeCountsSchema,
  }),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  costUsd: z.number(),
  modelCalls: z.object({
    count: z.number().int(),
    errors: z.number().int(),
    errorRate: z.number().nullable(),
    latencyMs: percentiles,
  }),
});
export type AnalyticsSummary = z.infer<typeof analyticsSummarySchema>;

/** One model's figures over the filtered runs. */
export const modelStatsSchema = z.object({
  model: z.string(),
  runs: z.number().int(),
  levelsAttempted: z.number().int(),
  levelsSolved: z.number().int(),
  solveRate: z.number().nullable(),
  /** Outcome solved_alone: within the retries, no person acted (docs/outcomes.md). */
  solvedAlone: z.number().int(),
  /** Solved with a hint or the person's password. */
  solvedWithHelp: z.number().int(),
  retries: z.number().int(),
  pauses: z.number().int(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  costUsd: z.number(),
  modelCalls: z.object({
    count: z.number().int(),
    errors: z.number().int(),
    errorRate: z.number().nullable(),
    latencyMs: percentiles,
  }),
});
export type ModelStats = z.infer<typeof modelStatsSchema>;

/** GET /api/analytics/models */
export const analyticsModelsSchema = z.object({ models: z.array(modelStatsSchema) });
export type AnalyticsModels = z.infer<typeof analyticsModelsSchema>;

/** One cell of the models × levels matrix. */
export const levelStatsSchema = z.object({
  model: z.string(),
  level: z.number().int(),
  runs: z.number().int(),
  solved: z.number().int(),
  solveRate: z.number(),
  /** Outcome solved_alone: within the retries, no person acted (docs/outcomes.md). */
  solvedAlone: z.number().int(),
  /** Solved with a hint or the person's password. */
  solvedWithHelp: z.number().int(),
  /** The cell's runs counted by how the level ended. */
  outcomes: outcomeCountsSchema,
  attempts: z.number().int(),
  retries: z.number().int(),
  pauses: z.number().int(),
  /** The pauses by why the run waited for a person. */
  pausesByReason: z.partialRecord(pauseReasonSchema, z.number().int()),
  medianCommandsToSolve: z.number().nullable(),
  medianTimeToSolveMs: z.number().nullable(),
  tokens: z.number().int(),
  costUsd: z.number(),
});
export type LevelStats = z.infer<typeof levelStatsSchema>;

/** GET /api/analytics/levels */
export const analyticsLevelsSchema = z.object({ cells: z.array(levelStatsSchema) });
export type AnalyticsLevels = z.infer<typeof analyticsLevelsSchema>;

/** ?…filters&limit=&cursor= for GET /api/analytics/failures. */
export const failuresQuerySchema = analyticsQuerySchema.extend({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(200, 'must be at most 200')
    .default(50),
  cursor: z
    .string()
    .regex(/^\d+:run_[0-9a-z]+:\d+$/, 'is not a cursor from a previous page')
    .optional(),
});
export type FailuresQuery = z.infer<typeof failuresQuerySchema>;

/** One failed model call or graph node, with where to find it and what to do. */
export const failureRowSchema = z.object({
  kind: z.enum(['model_call', 'node']),
  runId: z.string(),
  seq: z.number().int(),
  level: z.number().int(),
  model: z.string(),
  /** The model call's stage (plan, reflect) or the node's name. */
  stage: z.string(),
  /** The model call's error class, or "node_error". */
  errorClass: z.string(),
  message: z.string().nullable(),
  fix: z.string(),
  at: z.iso.datetime(),
  /** Where the run page shows it: /run?id=…#seq-N. */
  link: z.string(),
});
export type FailureRow = z.infer<typeof failureRowSchema>;

/** GET /api/analytics/failures: the newest failures first, and the common ones grouped by class. */
export const analyticsFailuresSchema = z.object({
  failures: z.array(failureRowSchema),
  nextCursor: z.string().nullable(),
  byClass: z.array(z.object({ errorClass: z.string(), count: z.number().int(), fix: z.string() })),
});
export type AnalyticsFailures = z.infer<typeof analyticsFailuresSchema>;

/** ?…filters&overMs=&limit= for GET /api/analytics/slow. */
export const slowQuerySchema = analyticsQuerySchema.extend({
  overMs: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(5_000),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(200, 'must be at most 200')
    .default(50),
});
export type SlowQuery = z.infer<typeof slowQuerySchema>;

/** GET /api/analytics/slow: node executions over the threshold, slowest first, with the model's share. */
export const analyticsSlowSchema = z.object({
  executions: z.array(
    z.object({
      runId: z.string(),
      seq: z.number().int(),
      node: z.string(),
      level: z.number().int(),
      model: z.string(),
      durationMs: z.number(),
      /** Time spent in model calls during the node. */
      modelMs: z.number(),
      /** durationMs − modelMs: the platform's and the shell's share. */
      overheadMs: z.number(),
      at: z.iso.datetime(),
      link: z.string(),
    }),
  ),
});
export type AnalyticsSlow = z.infer<typeof analyticsSlowSchema>;

/** ?…filters&bucket=hour|day for GET /api/analytics/series. */
export const seriesQuerySchema = analyticsQuerySchema.extend({ bucket: z.enum(['hour', 'day']).default('day') });
export type SeriesQuery = z.infer<typeof seriesQuerySchema>;

/** GET /api/analytics/series: per hour or day, for the charts. */
export const analyticsSeriesSchema = z.object({
  bucket: z.enum(['hour', 'day']),
  points: z.array(
    z.object({
      t: z.iso.datetime(),
      runs: z.number().int(),
      byStatus: z.partialRecord(runStatusSchema, z.number().int()),
      modelCalls: z.number().int(),
      errors: z.number().int(),
      tokens: z.number().int(),
      costUsd: z.number(),
      avgLatencyMs: z.number().nullable(),
    }),
  ),
});
export type AnalyticsSeries = z.infer<typeof analyticsSeriesSchema>;

/** GET /api/analytics/limits: why runs and levels ended without completing, by the one list of limit reasons. */
export const analyticsLimitsSchema = z.object({
  runs: z.array(z.object({ reason: limitReasonSchema, count: z.number().int(), text: z.string() })),
  levels: z.array(z.object({ reason: limitReasonSchema, count: z.number().int(), text: z.string() })),
});
export type AnalyticsLimits = z.infer<typeof analyticsLimitsSchema>;
