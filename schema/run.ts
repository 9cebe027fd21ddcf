// A run's configuration, status and summary, and the REST bodies that carry them.
// Shared by the worker, the proxy, the web app and the tests; types come from z.infer.
import { z } from 'zod';
import { levelSetSchema } from './level-sets.ts';
import { levelRangeProblem, MAX_LEVEL, targetSchema } from './levels.ts';
import { terminalSizeSchema } from './terminal.ts';
import { clientKindSchema } from './answered-by.ts';
import { raiseShape, runSpendSchema, runCapsSchema } from './budget.ts';
import { worldKeySchema, worldProblem, worldSchema } from './worlds.ts';
import { hostingUsageSchema } from './hosting.ts';

export { targetSchema } from './levels.ts';

/** The offline model every proxy has; a run may use it without asking the proxy. */
export const BASELINE_MODEL = 'baseline';
/** The model of a verification run: no model at all, the original run's solving commands again. */
export const REPLAY_MODEL = 'replay';
/** A run with no agent: a person plays each level in the run's terminal (issue 30). */
export const HUMAN_MODEL = 'human';
export type { Target } from './levels.ts';

const modelNameSchema = z
  .string()
  .trim()
  .min(1, 'name a model, e.g. "baseline"')
  .max(100, 'must be at most 100 characters')
  .regex(/^[\w.:/@+-]+$/, 'may hold letters, digits and . : / @ + - _ only');

export const levelSchema = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(MAX_LEVEL, `must be at most ${MAX_LEVEL}`);

export const runIdSchema = z
  .string()
  .regex(/^run_[0-9a-z]{20,40}$/, 'is not a run id (run_ followed by letters and digits)');

/** Stands for the level's own password in a replayed command; the verification run puts it back. */
export const LEVEL_PASSWORD_PLACEHOLDER = '{{level_password}}';

/** One solved level of the original run, as a verification run re-plays it. */
export const replayLevelSchema = z.strictObject({
  level: levelSchema,
  /** The commands of the solving attempt, in order, with the exit code each had. */
  commands: z
    .array(z.strictObject({ command: z.string().min(1).max(2000), exitCode: z.number().int().nullable() }))
    .max(100),
  /** sha256 (hex) of the password the original proved; the password itself is not carried. */
  passwordSha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex'),
});
export type ReplayLevel = z.infer<typeof replayLevelSchema>;

/** What a verification run re-plays: the original run and its solved levels. */
export const replayPlanSchema = z.strictObject({
  of: runIdSchema,
  levels: z
    .array(replayLevelSchema)
    .min(1, 'needs at least one solved level')
    .max(MAX_LEVEL + 1),
});
export type ReplayPlan = z.infer<typeof replayPlanSchema>;

export const batchIdSchema = z
  .string()
  .regex(/^batch_[0-9a-z]{20,40}$/, 'is not a batch id (batch_ followed by letters and digits)');

/** What a run does where it would pause for a person. */
export const onPauseSchema = z.enum(['wait', 'stop'], { error: 'must be "wait" (for a person) or "stop" (hands-off)' });
export type OnPause = z.infer<typeof onPauseSchema>;

/** The most think time a step may take: well inside the proxy's slice (PROXY_SLICE_MS, 10 s by default). */
export const MAX_PACE_MS = 5_000;
/** The think time the web form's "watch at a readable pace" asks for. */
export const READABLE_PACE_MS = 700;

const paceMsSchema = z
  .number({ error: 'must be a whole number of milliseconds' })
  .int('must be a whole number of milliseconds')
  .min(0, 'must be 0 (full speed) or more')
  .max(MAX_PACE_MS, `must be at most ${MAX_PACE_MS} ms`);

/** The fields of a run config, each checked alone; runConfigSchema adds the checks across fields. */
export const runConfigFieldsSchema = z.strictObject({
  target: targetSchema.default('practice'),
  startLevel: levelSchema.default(0),
  endLevel: levelSchema.default(20),
  model: modelNameSchema.default(BASELINE_MODEL),
  maxRetries: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10, 'must be at most 10')
    .default(3),
  budget: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(15),
  /**
   * One best-effort attempt after the last retry, before pausing: on unless set, for every model
   * but the offline baseline (which knows nothing more at the end than it did before).
   */
  finalAttempt: z.boolean({ error: 'must be true or false' }).optional(),
  /** The model asked for the final attempt; the run's own model when unset. */
  knowledgeModel: modelNameSchema.optional(),
  /** Only on verification runs (model "replay"), made by POST /api/runs/:id/verify. */
  replay: replayPlanSchema.optional(),
  /**
   * What the run does where it would pause for a person: wait (the default), or stop there, for a
   * hands-off comparison. A batch sets it for each of its runs.
   */
  onPause: onPauseSchema.optional(),
  /** The batch the run belongs to; set by POST /api/batches only. */
  batchId: batchIdSchema.optional(),
  /**
   * The baseline's think time per step, in ms: its thinking is written out over this long before it
   * acts, so a person can watch a run arrive. Unset or 0: at full speed. Baseline runs only.
   */
  paceMs: paceMsSchema.optional(),
  /** Caps on what the run may spend (issue 31, schema/budget.ts); the run pauses before crossing one. */
  caps: runCapsSchema.optional(),
  /** The level set the run plays (schema/level-sets.ts): set by the worker when it makes the run, whatever was sent. */
  levelSet: levelSetSchema.optional(),
  /**
   * The world the run plays in on the practice range (schema/worlds.ts): "shared" or "private". Unset when sent:
   * the worker chooses (private for a batch's runs on the practice range, shared otherwise) and stores it.
   */
  world: worldSchema.optional(),
  /** A private world's key, the run whose world it is (its own id; a fork's parent's): set by the worker only. */
  worldKey: worldKeySchema.optional(),
});

/**
 * What a person chooses when starting a run. "Level N" means: logged in as banditN, looking for
 * bandit(N+1)'s password. The run plays startLevel through endLevel inclusive.
 */
export const runConfigSchema = runConfigFieldsSchema.superRefine((c, ctx) => {
  if (c.endLevel < c.startLevel)
    return ctx.addIssue({ code: 'custom', path: ['endLevel'], message: 'must be at least startLevel' });
  if (c.knowledgeModel !== undefined && c.finalAttempt === false) {
    ctx.addIssue({
      code: 'custom',
      path: ['knowledgeModel'],
      message: 'is used only by the final attempt; drop it or set finalAttempt to true',
    });
  }
  if (c.paceMs && c.model !== BASELINE_MODEL) {
    ctx.addIssue({
      code: 'custom',
      path: ['paceMs'],
      message: `paces the offline "baseline" model only (a real model takes its own time); drop it for ${c.model}`,
    });
  }
  const replaying = c.model === REPLAY_MODEL;
  if (replaying !== (c.replay !== undefined)) {
    const message = replaying
      ? 'the "replay" model re-runs another run; start it with POST /api/runs/:id/verify'
      : 'is set only on verification runs (model "replay")';
    ctx.addIssue({ code: 'custom', path: [replaying ? 'model' : 'replay'], message });
  }
  if (replaying && (c.finalAttempt || c.knowledgeModel)) {
    ctx.addIssue({
      code: 'custom',
      path: ['finalAttempt'],
      message: 'a verification run has no model, so no final attempt',
    });
  }
  const world = worldProblem(c.target, c.world);
  if (world) ctx.addIssue({ code: 'custom', path: ['world'], message: world });
  if (c.worldKey !== undefined && c.world !== 'private')
    ctx.addIssue({
      code: 'custom',
      path: ['worldKey'],
      message: 'names a private world; set only with world "private"',
    });
  // Refused at the door: a run the target cannot play would only fail later. (A level already
  // out of every target's bounds has its own issue.)
  if (c.startLevel > MAX_LEVEL || c.endLevel > MAX_LEVEL) return;
  const problem = levelRangeProblem(c.target, c.startLevel, c.endLevel);
  if (problem) ctx.addIssue({ code: 'custom', path: ['endLevel'], message: problem });
});
export type RunConfig = z.infer<typeof runConfigSchema>;

/** Whether a run makes the best-effort final attempt: as set, else on for every model but baseline. */
export function finalAttemptOn(config: RunConfig): boolean {
  if (config.model === REPLAY_MODEL) return false;
  return config.finalAttempt ?? config.model !== BASELINE_MODEL;
}
export type RunConfigInput = z.input<typeof runConfigSchema>;

/** queued → running ⇄ paused_for_user_action → completed | failed | stopped */
export const runStatusSchema = z.enum([
  'queued',
  'running',
  'paused_for_user_action',
  'completed',
  'failed',
  'stopped',
]);
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
  // The agent's state outgrew the line it travels in; a field was cut and the step failed. Additive.
  'state_too_large',
  // A person took the terminal (issue 30); handing it back answers this pause. Additive.
  'takeover',
  // A run of model "human": the person plays this level in the terminal. Additive.
  'human_turn',
  // The next step could cross one of the run's caps or its batch's cost cap (issue 31); the pending
  // action's `breach` names which. Raising the cap answers it. Additive.
  'budget_exceeded',
]);
export type PauseReason = z.infer<typeof pauseReasonSchema>;

/** What the REST API and the WebSocket snapshot say about a run. */
export const runSummarySchema = z.object({
  id: runIdSchema,
  // A stored config was checked whole when the run was made; the index (D1) keeps only its columns,
  // so a listed verification run has model "replay" without its plan.
  config: runConfigFieldsSchema,
  status: runStatusSchema,
  currentLevel: z.number().int().min(0),
  levelsSolved: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  startedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  /** The run's caps and what it has spent against them (issue 31); present on GET /api/runs/:id. Additive. */
  spend: runSpendSchema.optional(),
  /** What Cloudflare bills for hosting the run, by its object's own counts (issue 34); on GET /api/runs/:id. Additive. */
  hosting: hostingUsageSchema.optional(),
  /** A fork's parent run (POST /api/runs/:id/fork, docs/forks.md); absent on a run that is no fork. Additive. */
  parentId: runIdSchema.optional(),
  /** The parent's step (event seq) the fork starts from: its log is the parent's 1..forkSeq, then its own. Additive. */
  forkSeq: z.number().int().min(1).optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

/** POST /api/runs: the run config; every field has a default. */
export const createRunBodySchema = runConfigSchema;

/** A hint's or a message's text: what a person tells the agent. */
export const hintSchema = z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters');
const passwordValueSchema = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

/** The answers a person can give a paused run, shared by REST and WebSocket. */
export const userActionShapes = {
  continue: { action: z.literal('continue'), hint: hintSchema.optional() },
  password: { action: z.literal('password'), value: passwordValueSchema },
  stop: { action: z.literal('stop') },
  /** A message the agent reads at its next model turn, without pausing the run (issue 30). */
  message: { action: z.literal('message'), text: hintSchema },
  /** Pauses the agent after its current node and opens the run's terminal for the sender (issue 30). */
  takeover: {
    action: z.literal('takeover'),
    cols: terminalSizeSchema.shape.cols.optional(),
    rows: terminalSizeSchema.shape.rows.optional(),
  },
  /** Closes the terminal and resumes the agent with a note of the session (or the password it proved). */
  handback: { action: z.literal('handback') },
  /** New, higher limits for the run's caps (or its batch's cost cap), then the run goes on (issue 31). */
  raise: raiseShape,
} as const;

/** POST /api/runs/:id/actions */
export const runActionSchema = z.discriminatedUnion('action', [
  z.strictObject(userActionShapes.continue),
  z.strictObject(userActionShapes.password),
  z.strictObject(userActionShapes.stop),
  z.strictObject({ action: z.literal('pause') }),
  z.strictObject({ action: z.literal('resume') }),
  z.strictObject(userActionShapes.message),
  z.strictObject(userActionShapes.takeover),
  z.strictObject(userActionShapes.handback),
  z.strictObject(userActionShapes.raise),
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
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(20),
  cursor: z
    .string()
    .regex(/^\d+:run_[0-9a-z]+$/, 'is not a cursor from a previous page')
    .optional(),
});

/** GET /api/runs/:id/ws?since=N: the replay of every event after seq N (see docs/protocol.md). */
export const socketQuerySchema = z.strictObject({
  since: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').optional(),
  /** Which first-party client this is (as the x-bandit-client header says over REST): names a terminal's holder. */
  client: clientKindSchema.optional(),
});

/** GET /api/runs/:id/events?since=N&limit=M: events after seq N, at most M (1-1000, default 500) and about 512 KiB. */
export const eventsQuerySchema = z.strictObject({
  since: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(0),
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(500),
});
