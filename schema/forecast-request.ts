// POST /api/forecast's body: a batch's models, target, levels and repeats, with the batch form's own
// field rules (schema/board.ts), so what the form can ask for a batch it can ask a forecast for.
import { z } from 'zod';
import { createBatchSchema } from './board.ts';
import { levelRangeProblem } from './levels.ts';

const batchFields = createBatchSchema.shape;

/** POST /api/forecast: the levels and models of a batch (or of one run), and how many times each runs. */
export const forecastRequestSchema = z
  .strictObject({
    models: batchFields.models,
    target: batchFields.target,
    startLevel: batchFields.startLevel,
    endLevel: batchFields.endLevel,
    repeats: batchFields.repeats,
  })
  .superRefine((r, ctx) => {
    if (r.endLevel < r.startLevel)
      return ctx.addIssue({ code: 'custom', path: ['endLevel'], message: 'must be at least startLevel' });
    const problem = levelRangeProblem(r.target, r.startLevel, r.endLevel);
    if (problem) ctx.addIssue({ code: 'custom', path: ['endLevel'], message: problem });
  });
export type ForecastRequest = z.infer<typeof forecastRequestSchema>;
export type ForecastRequestInput = z.input<typeof forecastRequestSchema>;
