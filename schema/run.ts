// A run's configuration, status and summary, and the REST bodies that carry them.
// Shared by the worker, the proxy, the web app and the tests; types come from z.infer.
import { z } from 'zod';
import { levelRangeProblem, MAX_LEVEL, targetSchema } from './levels.ts';

export { targetSchema } from './levels.ts';

/** The offline model every proxy has; a run may use it without asking the proxy. */
export const BASELINE_MODEL = 'baseline';
export type { Target } from './levels.ts';

const levelSchema = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(MAX_LEVEL, `must be at most ${MAX_LEVEL}`);

/**
 * What a person chooses when starting a run. "Level N" means: logged in as banditN, looking for
 * bandit(N+1)'s password. The run plays startLevel through endLevel inclusive.
 */
export const runConfigSchema = z
  .strictObject({
    target: targetSchema.default('practice'),
    startLevel: levelSchema.default(0),
    endLevel: levelSchema.default(20),
    model: z
      .string()
      .trim()
      .min(1, 'name a model, e.g. "baseline"')
      .max(100, 'must be at most 100 characters')
      .regex(/^[\w.:/@+-]+$/, 'may hold letters, digits and . : / @ + - _ only')
      .default(BASELINE_MODEL),
    maxRetries: z.number().int('must be a whole number').min(1, 'must be at least 1').max(10, 'must be at most 10').default(3),
    budget: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(15),
  })
  .superRefine((c, ctx) => {
    if (c.endLevel < c.startLevel) return ctx.addIssue({ code: 'custom', path: ['endLevel'], message: 'must be at least startLevel' });
    // Refused at the door: a run the target cannot play would only fail later. (A level already
    // out of every target's bounds has its own issue.)
    if (c.startLevel > MAX_LEVEL || c.endLevel > MAX_LEVEL) return;
    const problem = levelRangeProblem(c.target, c.startLevel, c.endLevel);
    if (problem) ctx.addIssue({ code: 'custom', path: ['endLevel'], message: problem });
  });
export type RunConfig = z.infer<typeof runConfigSchema>;
export type RunConfigInput = z.input<typeof runConfigSchema>;

/** queued → running ⇄ paused_for_user_action → completed | failed | stopped */
export const runStatusSchema = z.enum(['queued', 'running', 'paused_for_user_action', 'completed', 'failed', 'stopped']);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** Statuses a run never leaves. */
export const FINAL_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'stopped'];

/** Why a run waits for a person. */
export const pauseReasonSchema = z.enum([
  'max_retries',
  'llm_error',
  'ssh_error',
  'loop_detected',
  'proxy_unreachable',
  'user_requested',
  // The run starts above level 0 and nobody has given that level's password yet.
  'password_required',
]);
export type PauseReason = z.infer<typeof pauseReasonSchema>;

export const runIdSchema = z.string().regex(/^run_[0-9a-z]{20,40}$/, 'is not a run id (run_ followed by letters and digits)');

/** What the REST API and the WebSocket snapshot say about a run. */
export const runSummarySchema = z.object({
  id: runIdSchema,
  config: runConfigSchema,
  status: runStatusSchema,
  currentLevel: z.number().int().min(0),
  levelsSolved: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** POST /api/runs: the run config; every field has a default. */
export const createRunBodySchema = runConfigSchema;

const hintSchema = z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters');
const passwordValueSchema = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** The answers a person can give a paused run, shared by REST and WebSocket. */
export const userActionShapes = {
  continue: { action: z.literal('continue'), hint: hintSchema.optional() },
  password: { action: z.literal('password'), value: passwordValueSchema },
  stop: { action: z.literal('stop') },
} as const;

/** POST /api/runs/:id/actions */
export const runActionSchema = z.discriminatedUnion('action', [
  z.strictObject(userActionShapes.continue),
  z.strictObject(userActionShapes.password),
  z.strictObject(userActionShapes.stop),
  z.strictObject({ action: z.literal('pause') }),
  z.strictObject({ action: z.literal('resume') }),
]);
export type RunAction = z.infer<typeof runActionSchema>;

/** One row of GET /api/runs: the summary plus the run's model usage. */
export const runListItemSchema = runSummarySchema.extend({
  promptTokens: z.number().int().min(0),
  completionTokens: z.number().int().min(0),
  costUsd: z.number().min(0),
});
export type RunListItem = z.infer<typeof runListItemSchema>;

/** GET /api/runs: newest first; pass nextCursor back as ?cursor= for the next page. */
export const runListSchema = z.object({ runs: z.array(runListItemSchema), nextCursor: z.string().nullable() });
export type RunList = z.infer<typeof runListSchema>;

/** The query GET /api/runs accepts. */
export const runListQuerySchema = z.strictObject({
  status: runStatusSchema.optional(),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
  cursor: z.string().regex(/^\d+:run_[0-9a-z]+$/, 'is not a cursor from a previous page').optional(),
});

/** GET /api/runs/:id/events?since=N&limit=M: events after seq N, at most M (1-1000, default 500) and about 512 KiB. */
export const eventsQuerySchema = z.strictObject({
  since: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(0),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(500),
});
