// The parts of a RunSession over its SQLite, made together when the object first needs them. Making
// them applies the object's migrations, so only create() and a run that exists do: an unknown id writes nothing.
import { D1Outbox } from './d1-outbox.ts';
import { LevelStats } from '../level-stats.ts';
import { migrate } from '../object-sql/migrate.ts';
import { runSessionSchema } from '../object-sql/schema.ts';
import { runSessionMigrations } from '../object-sql/run-session-migrations.ts';
import { RequestChain } from '../request-chain.ts';
import { MessageInbox } from './message-inbox.ts';
import { RunLifecycle } from './run-lifecycle.ts';
import { RunSchedule } from './run-schedule.ts';
import { RunSockets } from './run-sockets.ts';
import { RunStore } from './run-store.ts';
import { RunBudget } from './run-budget.ts';
import { CheckpointHistory } from './checkpoint-history.ts';
import { ForkLinks } from './fork-links.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { ObjectUsage } from '../object-usage.ts';

/** Everything a RunSession works through. */
export type RunSessionParts = {
  store: RunStore;
  outbox: D1Outbox;
  schedule: RunSchedule;
  requests: RequestChain;
  sockets: RunSockets;
  levels: LevelStats;
  life: RunLifecycle;
  inbox: MessageInbox;
  budget: RunBudget;
  /** Each step's checkpoint, for forks. */
  history: CheckpointHistory;
  /** A fork's parent's events and a parent's forks. */
  forks: ForkLinks;
  /** What Cloudflare bills for the object, counted as it happens. */
  usage: ObjectUsage;
};

/**
 * Makes the parts, after bringing the object's tables up to the last migration. They work through `usage`'s
 * counting SQLite, so every statement's rows are counted (issue 34).
 */
export function makeParts(ctx: DurableObjectState, env: Env, usage: ObjectUsage): RunSessionParts {
  const sql = usage.counted(ctx.storage.sql);
  migrate(ctx.storage, runSessionMigrations, Date.now(), { sql, fresh: runSessionSchema });
  usage.attach(sql);
  const store = new RunStore(sql);
  const sockets = new RunSockets(ctx, store, env);
  const levels = new LevelStats(sql);
  const schedule = new RunSchedule(sql, ctx.storage, () => usage.alarmWrite());
  const budget = new RunBudget(sql, levels, env);
  const history = new CheckpointHistory(sql);
  const life = new RunLifecycle({ ctx, env, store, sockets, levels, schedule, budget, history });
  sockets.spendView = (run) => budget.view(run, Date.now());
  return {
    store,
    outbox: new D1Outbox(sql),
    schedule,
    requests: new RequestChain(),
    sockets,
    levels,
    life,
    inbox: new MessageInbox(sql),
    budget,
    history,
    forks: new ForkLinks(sql, store, env),
    usage,
  };
}

/** Whether the object's storage holds a run's tables, read without writing (create() had them made). */
export function hasRunTable(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'run'").toArray().length > 0;
}

/** What the RPC helpers (run-reads.ts, fork-rpcs.ts) reach of their RunSession. */
export type SessionHost = {
  ctx: DurableObjectState;
  env: Env;
  /** The parts, made on first use: only for a run that exists (or is being made). */
  parts: () => RunSessionParts;
  /** The run, or null when the object holds none; reads an unknown object without writing. */
  current: () => RunSummary | null;
  /** A fork's parent's events, in memory before any read of its log; nothing for other runs. */
  withPrefix: () => Promise<void>;
  /** The run's rows to D1, then the alarm set for what was scheduled. */
  mirrorAndArm: () => Promise<RunSummary>;
};
