// The D1 database: a cross-run index for the run list and analytics. The Durable Object owns each
// run's truth; these tables mirror it. Migrations come from `npm run db:generate` (drizzle-kit).
import { sql } from 'drizzle-orm';
import type { Forecast } from './forecast.ts';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { PauseReason } from './run.ts';
import type { LevelOutcome } from './level-outcome.ts';
import type { LimitReason } from './budget.ts';
import type { RecordedWorld } from './worlds.ts';

/** One row per run, kept current by its Durable Object. Times are epoch milliseconds. */
export const runs = sqliteTable(
  'runs',
  {
    id: text('id').primaryKey(),
    status: text('status').notNull(),
    target: text('target').notNull(),
    model: text('model').notNull(),
    startLevel: integer('start_level').notNull(),
    endLevel: integer('end_level').notNull(),
    maxRetries: integer('max_retries').notNull(),
    budget: integer('budget').notNull(),
    currentLevel: integer('current_level').notNull(),
    levelsSolved: integer('levels_solved').notNull().default(0),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    costUsd: real('cost_usd').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    startedAt: integer('started_at'),
    endedAt: integer('ended_at'),
    /** The batch the run was made in (POST /api/batches), if any. */
    batchId: text('batch_id'),
    /** Why the run ended without completing (schema/budget.ts LIMIT_REASONS); null otherwise. */
    limitReason: text('limit_reason').$type<LimitReason>(),
    /** A fork's parent run (POST /api/runs/:id/fork), and the parent's step (event seq) it starts from. */
    parentId: text('parent_id'),
    forkSeq: integer('fork_seq'),
    /** The level set the run was measured on (schema/level-sets.ts): board rows on different sets never merge. */
    levelSet: text('level_set'),
    /** The world it played in (schema/worlds.ts recordedWorld): board rows of a shared and a private world never merge. */
    world: text('world').$type<RecordedWorld>(),
  },
  (t) => [
    // "How many runs hit the cost cap": one count from the index, the runs that ended short only.
    index('runs_limit_idx').on(t.limitReason, t.model).where(sql`limit_reason IS NOT NULL`),
    // A batch's runs, and the batch list, without a scan.
    index('runs_batch_idx').on(t.batchId, t.createdAt).where(sql`batch_id IS NOT NULL`),
    // The run list: newest first, optionally filtered by status, paged by (created_at, id).
    index('runs_created_idx').on(t.createdAt, t.id),
    index('runs_status_created_idx').on(t.status, t.createdAt, t.id),
    index('runs_model_idx').on(t.model),
    // A run's forks, listed on its page.
    index('runs_parent_idx').on(t.parentId, t.createdAt).where(sql`parent_id IS NOT NULL`),
  ],
);

/** Every model call: what it cost, how long it took, how it failed, and what was said. */
export const llmCalls = sqliteTable(
  'llm_calls',
  {
    id: text('id').primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    level: integer('level').notNull(),
    model: text('model').notNull(),
    stage: text('stage').notNull(),
    promptTokens: integer('prompt_tokens').notNull(),
    completionTokens: integer('completion_tokens').notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** Milliseconds to the first streamed token; null when the call did not stream. */
    ttftMs: integer('ttft_ms'),
    costUsd: real('cost_usd'),
    errorClass: text('error_class'),
    request: text('request', { mode: 'json' }),
    response: text('response', { mode: 'json' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('llm_calls_run_idx').on(t.runId, t.seq),
    index('llm_calls_model_idx').on(t.model, t.createdAt),
    index('llm_calls_created_idx').on(t.createdAt),
    // Latency percentiles walk these in order instead of sorting every call; the time and level
    // filters are checked in the index, without reading the row.
    index('llm_calls_latency_idx').on(t.latencyMs, t.createdAt, t.level),
    index('llm_calls_model_latency_idx').on(t.model, t.latencyMs, t.createdAt, t.level),
    // The failures list reads only the failed calls.
    index('llm_calls_errors_idx').on(t.createdAt).where(sql`error_class IS NOT NULL`),
  ],
);

/** Every graph node the agent ran: for timing and failure analysis. */
export const executions = sqliteTable(
  'executions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    node: text('node').notNull(),
    level: integer('level').notNull(),
    startedAt: integer('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    status: text('status').notNull(),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('executions_run_seq_idx').on(t.runId, t.seq),
    index('executions_node_idx').on(t.node, t.status),
    // Slow executions, slowest first, and failed ones, newest first, without a scan.
    index('executions_duration_idx').on(t.durationMs),
    index('executions_errors_idx').on(t.startedAt).where(sql`status = 'error'`),
  ],
);

/** Every shell command the agent ran, with its result. */
export const commands = sqliteTable(
  'commands',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    level: integer('level').notNull(),
    command: text('command').notNull(),
    exitCode: integer('exit_code'),
    durationMs: integer('duration_ms').notNull(),
    outputBytes: integer('output_bytes').notNull().default(0),
    truncated: integer('truncated', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('commands_run_seq_idx').on(t.runId, t.seq), index('commands_level_idx').on(t.level)],
);

/** One row per run and level it reached: the roll-up the per-model and per-level analytics read. */
export const runLevels = sqliteTable(
  'run_levels',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    level: integer('level').notNull(),
    model: text('model').notNull(),
    target: text('target').notNull(),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
    attempts: integer('attempts').notNull(),
    retries: integer('retries').notNull(),
    pauses: integer('pauses').notNull(),
    solved: integer('solved', { mode: 'boolean' }).notNull(),
    /** Solved with a hint or the person's password: `isHelped(outcome)`, kept for older readers. */
    helped: integer('helped', { mode: 'boolean' }).notNull(),
    /**
     * How the level ended (schema/level-outcome.ts). Null only on rows written before the taxonomy,
     * until their run's object folds its log again (worker/outcome-refold.ts).
     */
    outcome: text('outcome').$type<LevelOutcome>(),
    /** Pauses at this level by reason, e.g. {"max_retries":1}. */
    pauseReasons: text('pause_reasons', { mode: 'json' })
      .$type<Partial<Record<PauseReason, number>>>()
      .notNull()
      .default({}),
    commands: integer('commands').notNull(),
    promptTokens: integer('prompt_tokens').notNull(),
    completionTokens: integer('completion_tokens').notNull(),
    costUsd: real('cost_usd').notNull(),
    /** Why the level ended unsolved, once its run ended there (schema/budget.ts LIMIT_REASONS). */
    limitReason: text('limit_reason').$type<LimitReason>(),
    /** The run's level set (schema/level-sets.ts), copied so the board's cells never merge two sets. */
    levelSet: text('level_set'),
    /** The run's world (schema/worlds.ts), copied so the board's cells never merge a shared and a private world. */
    world: text('world').$type<RecordedWorld>(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.level] }),
    // The models × levels matrix sums every column it shows from this index alone, in group order
    // (without it SQLite reads each row or sorts them all: 150 ms at 10,000 runs, against 30 ms).
    index('run_levels_cells_idx').on(
      t.model,
      t.level,
      t.solved,
      t.outcome,
      t.attempts,
      t.retries,
      t.pauses,
      t.promptTokens,
      t.completionTokens,
      t.costUsd,
      t.startedAt,
      t.target,
    ),
    // Pauses by reason: only the levels that paused, with their reasons, in group order.
    index('run_levels_paused_idx').on(t.model, t.level, t.startedAt, t.target, t.pauseReasons).where(sql`pauses > 0`),
    index('run_levels_started_idx').on(t.startedAt),
    // Rows still to fold again after an upgrade: found without a scan, and an empty index once done.
    index('run_levels_unfolded_idx').on(t.runId).where(sql`outcome IS NULL`),
    // Medians of commands and of time to solve: the middle rows of each (model, level), in index order.
    index('run_levels_commands_idx').on(t.model, t.level, t.solved, t.commands),
    index('run_levels_solve_ms_idx').on(t.model, t.level, t.solved, sql`(${t.endedAt} - ${t.startedAt})`),
    // The board's cells and rows: one level set and world at a time (issues 32, 33), grouped in index order, from the
    // index alone.
    index('run_levels_board_idx').on(t.model, t.levelSet, t.world, t.level, t.solved, t.outcome, t.commands, t.target),
    // The board's medians per solved level: the solved rows' time and cost, read without the table.
    index('run_levels_solves_idx')
      .on(t.model, t.levelSet, t.world, t.level, sql`(${t.endedAt} - ${t.startedAt})`, t.costUsd)
      .where(sql`solved AND ended_at IS NOT NULL`),
  ],
);

/**
 * Model calls summed per hour, model, level and target: the roll-up that counts, errors, tokens,
 * cost and the latency series read. A trigger on llm_calls keeps it (migration 0004), so every row
 * the mirror inserts is counted once; the mirror's retries insert nothing and so count nothing.
 */
export const llmHourly = sqliteTable(
  'llm_hourly',
  {
    hour: integer('hour').notNull(),
    model: text('model').notNull(),
    level: integer('level').notNull(),
    target: text('target').notNull(),
    calls: integer('calls').notNull(),
    errors: integer('errors').notNull(),
    promptTokens: integer('prompt_tokens').notNull(),
    completionTokens: integer('completion_tokens').notNull(),
    costUsd: real('cost_usd').notNull(),
    latencyMsSum: integer('latency_ms_sum').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.hour, t.model, t.level, t.target] }),
    index('llm_hourly_model_idx').on(t.model, t.hour),
  ],
);

/**
 * The forecast a batch was made with (issue 31, schema/forecast.ts), from the runs before it: the batch page
 * shows it against what the batch's runs spend. No row: the batch predates forecasts, or D1 failed the write.
 */
export const batchForecasts = sqliteTable('batch_forecasts', {
  batchId: text('batch_id').primaryKey(),
  createdAt: integer('created_at').notNull(),
  forecast: text('forecast', { mode: 'json' }).$type<Forecast>().notNull(),
});

/**
 * Access tokens other than API_TOKEN (issue 32): a role token (admin, operator, viewer) or a share link's
 * token for one run. Only the SHA-256 of the token is stored; the token itself is shown once, when made.
 */
export const accessTokens = sqliteTable(
  'access_tokens',
  {
    id: text('id').primaryKey(),
    /** 'admin' | 'operator' | 'viewer' | 'share' (schema/access.ts). */
    role: text('role').notNull(),
    /** The one run a share token opens; null for a role token. */
    runId: text('run_id'),
    label: text('label'),
    /** Hex SHA-256 of the token. */
    hash: text('hash').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [
    uniqueIndex('access_tokens_hash_idx').on(t.hash),
    index('access_tokens_run_idx').on(t.runId, t.createdAt).where(sql`run_id IS NOT NULL`),
  ],
);

export type RunRow = typeof runs.$inferSelect;
export type NewRunRow = typeof runs.$inferInsert;
export type LlmCallRow = typeof llmCalls.$inferSelect;
export type ExecutionRow = typeof executions.$inferSelect;
export type CommandRow = typeof commands.$inferSelect;
