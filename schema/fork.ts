// Forking a run from one of its steps (issue 32, docs/forks.md): the request body, what a fork changes,
// and the list of a run's forks. One definition for the worker, the web app and the tests.
import { z } from 'zod';
import { runCapsSchema } from './budget.ts';
import { hintSchema, runIdSchema } from './run.ts';

const forkModelSchema = z
  .string()
  .trim()
  .min(1, 'name a model, e.g. "baseline"')
  .max(100, 'must be at most 100 characters')
  .regex(/^[\w.:/@+-]+$/, 'may hold letters, digits and . : / @ + - _ only');

/** What a fork may change from its parent: the model, a hint for the agent, the caps. */
export const forkChangesSchema = z.strictObject({
  model: forkModelSchema.optional(),
  /** At a pause: the answer to it (a continue with this hint). Elsewhere: a message the agent reads next. */
  hint: hintSchema.optional(),
  caps: runCapsSchema.optional(),
});
export type ForkChanges = z.infer<typeof forkChangesSchema>;

/** POST /api/runs/:id/fork: the step (event seq) to start from, and what to change. */
export const forkBodySchema = forkChangesSchema.extend({
  seq: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more'),
});
export type ForkBody = z.infer<typeof forkBodySchema>;

/** One fork of a run, as GET /api/runs/:id/forks lists it. */
export const forkEntrySchema = z.object({
  id: runIdSchema,
  /** The parent's step the fork starts from. */
  seq: z.number().int().min(1),
  createdAt: z.iso.datetime(),
});
export type ForkEntry = z.infer<typeof forkEntrySchema>;

/** GET /api/runs/:id/forks: oldest first. */
export const forkListSchema = z.object({ forks: z.array(forkEntrySchema) });
export type ForkList = z.infer<typeof forkListSchema>;
