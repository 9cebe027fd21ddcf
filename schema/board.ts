// Shapes of the head-to-head board and of batches: several models on the same levels, side by side.
import { actualSpendSchema, storedForecastSchema } from './forecast.ts';
import { outcomeCountsSchema } from './level-outcome.ts';
import { z } from 'zod';
import { targetSchema } from './levels.ts';
import { batchBudgetSchema, costCapSchema, limitReasonSchema } from './budget.ts';
import { passAtSchema, rateSchema } from './board-stats.ts';
import { PRIVATE_ON_BANDIT, recordedWorldSchema, worldProblem, worldSchema } from './worlds.ts';
import {
  batchIdSchema,
  HUMAN_MODEL,
  levelSchema,
  onPauseSchema,
  runConfigFieldsSchema,
  runListItemSchema,
  runStatusSchema,
} from './run.ts';

/** ?batch=&target=&from=&to= — every field optional. */
export const boardQuerySchema = z.strictObject({
  batch: batchIdSchema.optional(),
  target: targetSchema.optional(),
  from: z.iso.datetime({ error: 'must be an ISO 8601 time such as 2026-11-01T00:00:00Z' }).optional(),
  to: z.iso.datetime({ error: 'must be an ISO 8601 time such as 2026-11-30T00:00:00Z' }).optional(),
});
export type BoardQuery = z.infer<typeof boardQuerySchema>;

/**
 * Where a board row was measured: its target, level set (schema/level-sets.ts) and world (schema/worlds.ts). A
 * model played on two level sets, or in a shared and a private world, has a row for each, never averaged together:
 * a row's runs all played in the one world it names.
 */
const measuredOnSchema = {
  target: targetSchema,
  levelSet: z.string(),
  /** Whether its runs played in the shared world, each in a private world of its own, or before this was recorded. */
  world: recordedWorldSchema,
};

/** A figure's median over the solved levels (nearest rank, schema/nearest-rank.ts); null when none was solved. */
const solvedMediansSchema = {
  /** Median time from the level's start to its proof, in ms, over its solved runs. */
  medianSolveMs: z.number().nullable(),
  /** Median cost of a solved level (what the run spent at that level), in USD. */
  medianSolveCostUsd: z.number().nullable(),
};

/** One model at one level, over the runs that reached it. */
export const boardCellSchema = z.object({
  model: z.string(),
  ...measuredOnSchema,
  level: z.number().int(),
  /** Runs that reached the level. */
  runs: z.number().int(),
  /** Outcome solved_alone: within the retries, no person acted at the level (docs/outcomes.md). */
  alone: z.number().int(),
  /** Solved with a hint or the person's password at this level. */
  helped: z.number().int(),
  notSolved: z.number().int(),
  /** The runs counted by how the level ended; alone, helped and notSolved are sums of these. */
  outcomes: outcomeCountsSchema,
  /** Solved alone, and solved at all (alone, after help, or by the final attempt), of `runs`: 95 % Wilson. Additive. */
  aloneRate: rateSchema.nullable().optional(),
  solvedRate: rateSchema.nullable().optional(),
  /** pass@k of solving the level (any outcome but not_solved), for k = 1, 3, 5 where the cell has k runs. Additive. */
  passAt: passAtSchema.optional(),
  ...solvedMediansSchema,
});
export type BoardCell = z.infer<typeof boardCellSchema>;

/** The spread of one figure across a model's runs (its repeats). */
const spreadSchema = z.object({
  mean: z.number(),
  /** Sample standard deviation; 0 for a single run. */
  sd: z.number(),
  /** Standard error of the mean (sd / √n): the ± the board shows. */
  stderr: z.number(),
  min: z.number(),
  max: z.number(),
});

/** One model's row of the board, on one level set. */
export const boardModelSchema = z.object({
  model: z.string(),
  ...measuredOnSchema,
  runs: z.number().int(),
  /** The highest level any of its runs reached. */
  highestLevel: z.number().int().nullable(),
  levelsSolved: z.number().int(),
  /** Levels whose outcome is solved_alone. */
  levelsSolvedAlone: z.number().int(),
  commands: z.number().int(),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  costUsd: z.number(),
  /** costUsd / levelsSolved; null when it solved none. */
  costPerLevelSolved: z.number().nullable(),
  /** Summed over its runs, from start to end (or to now, for one still going). */
  wallTimeMs: z.number(),
  /** Levels solved per run, across its runs. */
  levelsSolvedPerRun: spreadSchema,
  /** Cost per run, across its runs. */
  costPerRun: spreadSchema,
  /** Levels solved alone of the levels its runs reached, with a 95 % Wilson interval (schema/board-stats.ts). Additive. */
  aloneRate: rateSchema.nullable().optional(),
  /** Levels solved at all (alone, after help, or by the final attempt) of the levels its runs reached, 95 % Wilson. */
  solvedRate: rateSchema.nullable().optional(),
  /** Its runs that ended without completing, by why (schema/budget.ts LIMIT_REASONS). Additive. */
  limits: z.partialRecord(limitReasonSchema, z.number().int()).default({}),
  /** Over every level it solved, whatever the level. */
  ...solvedMediansSchema,
});
export type BoardModel = z.infer<typeof boardModelSchema>;

/** GET /api/board */
export const boardSchema = z.object({
  models: z.array(boardModelSchema),
  cells: z.array(boardCellSchema),
  /** The levels the cells cover, lowest first. */
  levels: z.array(z.number().int()),
  /** With ?batch=: the forecast the batch was made with (null when none was stored). Additive (issue 31). */
  forecast: storedForecastSchema.nullable().optional(),
  /** With ?batch=: what each model's runs of the batch have spent. Additive (issue 31). */
  actual: z.array(actualSpendSchema).optional(),
});
export type Board = z.infer<typeof boardSchema>;

/** A board row's key: a model on one level set in one kind of world (cells join their row by it). */
export const boardRowKey = (row: { model: string; levelSet: string; world: string }): string =>
  `${row.model}\u0000${row.levelSet}\u0000${row.world}`;

const modelListSchema = z
  .array(z.string().trim().min(1, 'name a model').max(100))
  .min(1, 'list at least one model')
  .max(20, 'at most 20 models')
  .refine(
    (models) => new Set(models).size === models.length,
    'lists a model twice; use repeats to run one model more than once',
  )
  // A batch runs hands-off; a human run waits for its player at every level and would never end.
  .refine(
    (models) => !models.includes(HUMAN_MODEL),
    `"${HUMAN_MODEL}" is played by a person, level by level: start it as its own run (the run form, or bandit-runner play), not in a batch`,
  );

/** POST /api/batches: the same levels for several models, each run `repeats` times. */
export const createBatchSchema = z
  .strictObject({
    models: modelListSchema,
    target: targetSchema.default('practice'),
    startLevel: levelSchema.default(0),
    endLevel: levelSchema.default(5),
    maxRetries: runConfigFieldsSchema.shape.maxRetries,
    budget: runConfigFieldsSchema.shape.budget,
    finalAttempt: runConfigFieldsSchema.shape.finalAttempt,
    repeats: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(20, 'must be at most 20')
      .default(1),
    /** Hands-off ("stop", the default: a pause ends the run) or "wait" for a person. */
    onPause: onPauseSchema.default('stop'),
    /** At most this many of the batch's runs at once, on top of the global and provider limits. */
    maxRunning: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(200, 'must be at most 200')
      .optional(),
    /** A cost cap over all the batch's runs (issue 31): reached, it starts no more runs and pauses the running ones. */
    maxCostUsd: costCapSchema.optional(),
    /** Where its runs play (schema/worlds.ts): unset, each in a private world of its own on the practice range. */
    world: worldSchema.optional(),
  })
  .refine((b) => worldProblem(b.target, b.world) === null, {
    path: ['world'],
    message: PRIVATE_ON_BANDIT,
  })
  .refine((b) => b.models.length * b.repeats <= 200, {
    path: ['repeats'],
    message: 'a batch makes at most 200 runs (models × repeats)',
  });
export type CreateBatch = z.infer<typeof createBatchSchema>;

/** POST /api/batches/:id/raise: a new cost cap over all the batch's runs (above what they have spent). */
export const raiseBatchSchema = z.strictObject({ maxCostUsd: costCapSchema });

/** A batch and its runs, newest run last. */
export const batchSchema = z.object({
  id: batchIdSchema,
  createdAt: z.iso.datetime(),
  models: z.array(z.string()),
  config: z.object({
    target: targetSchema,
    startLevel: z.number().int(),
    endLevel: z.number().int(),
    maxRetries: z.number().int(),
    budget: z.number().int(),
    onPause: onPauseSchema,
    /** The world its runs play in (schema/worlds.ts). Additive. */
    world: recordedWorldSchema.optional(),
  }),
  /** The batch's cost cap and its spend; null when it has no cap. Additive. */
  spend: batchBudgetSchema.nullable().optional(),
  progress: z.object({
    total: z.number().int(),
    byStatus: z.partialRecord(runStatusSchema, z.number().int()),
    done: z.number().int(),
  }),
  runs: z.array(runListItemSchema.extend({ queuePosition: z.number().int().nullable() })),
  /** The forecast it was made with (schema/forecast.ts); null when none was stored. Additive (issue 31). */
  forecast: storedForecastSchema.nullable().optional(),
  /** What each model's runs have spent so far, to set against the forecast. Additive (issue 31). */
  actual: z.array(actualSpendSchema).optional(),
});
export type Batch = z.infer<typeof batchSchema>;

/** GET /api/batches: the newest first. */
export const batchListSchema = z.object({
  batches: z.array(
    z.object({
      id: batchIdSchema,
      createdAt: z.iso.datetime(),
      runs: z.number().int(),
      done: z.number().int(),
      models: z.array(z.string()),
    }),
  ),
});
export type BatchList = z.infer<typeof batchListSchema>;
