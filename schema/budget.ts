// Budgets (issue 31): the caps a run or a batch may not cross, what has been spent against them,
// the breach a budget pause names, and the one list of reasons a run or a level ended without
// being solved. The worker, the proxy, the CLI, the web app and the D1 queries all read these.
import { z } from 'zod';

/** Every cap a run can carry, in the order they are shown. */
export const RUN_CAPS = ['maxCostUsd', 'maxTokens', 'maxWallSeconds', 'maxCommands', 'maxModelCalls'] as const;
export type RunCap = (typeof RUN_CAPS)[number];
/** A budget pause names one of the run's caps or the batch's cost cap. */
export const capNameSchema = z.enum([...RUN_CAPS, 'batchMaxCostUsd']);
export type CapName = z.infer<typeof capNameSchema>;

const positive = (unit: string) =>
  z
    .number({ error: `must be a number of ${unit}` })
    .positive(`must be more than 0 ${unit} (leave it out for no cap)`)
    .max(1e12, 'is too large');
const positiveWhole = (unit: string) => positive(unit).int(`must be a whole number of ${unit}`);

export const costCapSchema = positive('US dollars');

/** A run's caps; each is optional, and a cap left out is no cap. */
export const runCapsSchema = z.strictObject({
  maxCostUsd: costCapSchema.optional(),
  /** Prompt plus completion tokens over every model call of the run. */
  maxTokens: positiveWhole('tokens').optional(),
  /** Seconds the run has been running: from its start, less each pause until it runs again. */
  maxWallSeconds: positiveWhole('seconds').optional(),
  /** Commands the agent ran (the final attempt's included). */
  maxCommands: positiveWhole('commands').optional(),
  /** Requests sent to the model, failed ones included. */
  maxModelCalls: positiveWhole('model calls').optional(),
});
export type RunCaps = z.infer<typeof runCapsSchema>;

/** What a run has spent, each figure against the cap of the same place in RUN_CAPS. */
export const spentSchema = z.object({
  costUsd: z.number().min(0),
  tokens: z.number().int().min(0),
  wallSeconds: z.number().min(0),
  commands: z.number().int().min(0),
  modelCalls: z.number().int().min(0),
});
export type Spent = z.infer<typeof spentSchema>;
export const NOTHING_SPENT: Spent = { costUsd: 0, tokens: 0, wallSeconds: 0, commands: 0, modelCalls: 0 };

/** Which spent figure each cap bounds. */
export const SPENT_OF_CAP: Record<RunCap, keyof Spent> = {
  maxCostUsd: 'costUsd',
  maxTokens: 'tokens',
  maxWallSeconds: 'wallSeconds',
  maxCommands: 'commands',
  maxModelCalls: 'modelCalls',
};

/** What a budget pause names: the cap, the amount spent against it, its limit, and what the next step could add. */
export const budgetBreachSchema = z.object({
  cap: capNameSchema,
  spent: z.number().min(0),
  limit: z.number().min(0),
  /** The most the step that was not taken could have added (a model call's worst case, 1 command, …). */
  next: z.number().min(0),
});
export type BudgetBreach = z.infer<typeof budgetBreachSchema>;

/** GET /api/runs/:id: the run's caps and what it has spent; the batch's cap when its batch has one. */
export const runSpendSchema = z.object({
  caps: runCapsSchema,
  spent: spentSchema,
  batch: z.object({ id: z.string(), maxCostUsd: z.number(), spentUsd: z.number().min(0) }).nullable(),
});
export type RunSpend = z.infer<typeof runSpendSchema>;

/**
 * The raise action: new limits for the caps named (each must be above what is spent against it),
 * and for a run of a capped batch, a new batch cost cap. The run then goes on where it paused.
 */
export const raiseShape = {
  action: z.literal('raise'),
  caps: runCapsSchema.optional(),
  batchMaxCostUsd: costCapSchema.optional(),
} as const;

/**
 * Why a run or a level ended without being solved: the one list the archive, the board, analytics and
 * the CLI read. A cap's reason is the cap's own name; null (not listed) means it was solved or completed, or has not ended.
 */
export const LIMIT_REASONS = [...capNameSchema.options, 'max_retries', 'stopped', 'failed'] as const;
export const limitReasonSchema = z.enum(LIMIT_REASONS);
export type LimitReason = z.infer<typeof limitReasonSchema>;

export const LIMIT_TEXT: Record<LimitReason, string> = {
  maxCostUsd: "the run's cost cap",
  maxTokens: "the run's token cap",
  maxWallSeconds: "the run's time cap",
  maxCommands: "the run's command cap",
  maxModelCalls: "the run's model-call cap",
  batchMaxCostUsd: "the batch's cost cap",
  max_retries: 'its retries ran out',
  stopped: 'a person (or a hands-off batch) stopped it at a pause',
  failed: 'the run failed',
};

/** A short label for tables: "cost cap", "retries", … */
export const LIMIT_LABEL: Record<LimitReason, string> = {
  maxCostUsd: 'cost cap',
  maxTokens: 'token cap',
  maxWallSeconds: 'time cap',
  maxCommands: 'command cap',
  maxModelCalls: 'call cap',
  batchMaxCostUsd: 'batch cap',
  max_retries: 'retries',
  stopped: 'stopped',
  failed: 'failed',
};

/** A cap and its figures as a person reads them: "$2.00", "12,000 tokens", "90 s", … */
export function formatCapValue(cap: CapName, value: number): string {
  if (cap === 'maxCostUsd' || cap === 'batchMaxCostUsd') return `$${value.toFixed(value < 1 ? 4 : 2)}`;
  if (cap === 'maxWallSeconds') return `${Math.round(value)} s`;
  const n = Math.round(value);
  const unit = { maxTokens: 'token', maxCommands: 'command', maxModelCalls: 'model call' }[cap];
  return `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;
}

/** Caps counted in whole units (tokens, seconds, commands, calls); the cost caps are dollars. */
const WHOLE_CAPS: readonly CapName[] = ['maxTokens', 'maxWallSeconds', 'maxCommands', 'maxModelCalls'];

/**
 * The limit a raise by `factor` gives the cap a pause named: the limit × factor, and at least what is spent
 * plus what the held-back step could add (so the raise lets that step run), rounded up to what the cap takes
 * (whole units, or a millionth of a dollar). The CLI's raise=X, its prompt's offer and the web form's first
 * value all come from here.
 */
export function raisedLimit(breach: BudgetBreach, factor: number): number {
  const raised = Math.max(breach.limit * factor, breach.spent + breach.next);
  const rounded = WHOLE_CAPS.includes(breach.cap) ? Math.ceil(raised) : Math.ceil(raised * 1e6) / 1e6;
  // Above what is spent, which a raise must be (a time cap can be passed by a step that had begun).
  return rounded > breach.spent
    ? rounded
    : WHOLE_CAPS.includes(breach.cap)
      ? Math.floor(breach.spent) + 1
      : rounded * 2;
}

/** The sentence a budget pause says: which cap, how much was spent, the limit, what the next step needed. */
export function breachText(b: BudgetBreach): string {
  const what = LIMIT_TEXT[b.cap];
  // A time cap, or a run the queue held at its batch's cap, has no known next step.
  const next = b.next > 0 ? `, and the next step could add ${formatCapValue(b.cap, b.next)}` : '';
  return `paused at ${what}: ${formatCapValue(b.cap, b.spent)} spent of ${formatCapValue(b.cap, b.limit)}${next}; raise the cap to go on, or stop`;
}

/**
 * What the run's Durable Object hands the proxy with each advance (POST /v1/advance `spend`): the
 * caps as now raised, what the run had spent when the call began, when the call began (for wall time),
 * and, for a run of a capped batch, the dollars the batch's owner reserved for this call.
 */
export const advanceSpendSchema = z.strictObject({
  caps: runCapsSchema,
  spent: spentSchema,
  /** The batch's share for this call; absent when the run's batch has no cap (or there is no batch). */
  batch: z
    .strictObject({
      allowanceUsd: z.number().min(0),
      /** True when the allowance is all the batch has left: needing more pauses the run at the batch cap. */
      exhaustive: z.boolean(),
      spentUsd: z.number().min(0),
      maxCostUsd: z.number().positive(),
    })
    .optional(),
});
export type AdvanceSpend = z.infer<typeof advanceSpendSchema>;

/** What a raise asked for, as a person reads it: "the run's cost cap to $4.00, the batch's cost cap to $30.00". */
export function raiseText(caps: RunCaps, batchMaxCostUsd?: number): string {
  const parts = RUN_CAPS.flatMap((cap) => {
    const value = caps[cap];
    return value === undefined ? [] : [`${LIMIT_TEXT[cap]} to ${formatCapValue(cap, value)}`];
  });
  if (batchMaxCostUsd !== undefined)
    parts.push(`${LIMIT_TEXT.batchMaxCostUsd} to ${formatCapValue('batchMaxCostUsd', batchMaxCostUsd)}`);
  return parts.join(', ');
}

/** What the batch's owner (the run queue) grants a run for its next call; see advanceSpendSchema's `batch`. */
export type BatchGrant = { allowanceUsd: number; exhaustive: boolean; spentUsd: number; maxCostUsd: number };

/** A batch's cost cap and its spend, as the queue keeps them. */
export const batchBudgetSchema = z.object({
  maxCostUsd: z.number().positive(),
  spentUsd: z.number().min(0),
  /** Dollars held for calls in progress. */
  reservedUsd: z.number().min(0),
  /** The cap stopped a run: the batch starts no more until it is raised. */
  reached: z.boolean(),
});
export type BatchBudget = z.infer<typeof batchBudgetSchema>;
