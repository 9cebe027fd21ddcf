// A run's lifecycle inside its Durable Object: every status change, pause and ending is recorded as
// an event (stored, then broadcast), and a run that waits for a person or has ended gives its queue
// slot back. RunSession decides when; this says how, in one place.
import type { PendingAction, RunEvent, RunEventBody } from '../../schema/protocol.ts';
import type { RunStatus, RunSummary } from '../../schema/run.ts';
import { FINAL_STATUSES } from '../../schema/run.ts';
import type { LevelStats } from '../level-stats.ts';
import { queueFor } from '../run-queue.ts';
import type { RunSchedule } from './run-schedule.ts';
import type { RunSockets } from './run-sockets.ts';
import type { RunStore } from './run-store.ts';
import type { RunBudget } from './run-budget.ts';
import type { CheckpointHistory } from './checkpoint-history.ts';
import type { BudgetBreach } from '../../schema/budget.ts';
import { formatCapValue } from '../../schema/budget.ts';

export type LifecycleParts = {
  ctx: DurableObjectState;
  env: Env;
  store: RunStore;
  sockets: RunSockets;
  levels: LevelStats;
  schedule: RunSchedule;
  budget: RunBudget;
  history: CheckpointHistory;
};

export class RunLifecycle {
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private readonly store: RunStore;
  private readonly sockets: RunSockets;
  private readonly levels: LevelStats;
  private readonly schedule: RunSchedule;
  private readonly budget: RunBudget;
  private readonly history: CheckpointHistory;

  constructor(parts: LifecycleParts) {
    this.ctx = parts.ctx;
    this.env = parts.env;
    this.store = parts.store;
    this.sockets = parts.sockets;
    this.levels = parts.levels;
    this.schedule = parts.schedule;
    this.budget = parts.budget;
    this.history = parts.history;
  }

  /** Stores an event, then sends it to every live client: stored before broadcast, always. */
  record(body: RunEventBody, now: number): RunEvent {
    const run = this.store.summary();
    if (!run) throw new Error('record() before create()');
    const [event] = this.store.append(run.id, [body], now) as [RunEvent];
    this.levels.apply(event);
    // A pause is a place a fork may start: the checkpoint it paused at is kept there.
    if (event.type === 'user_action_required') this.history.add(event.seq, null);
    this.sockets.broadcast([event]);
    return event;
  }

  transition(from: RunStatus, to: RunStatus, now: number, reason: string): void {
    this.store.update({ status: to }, now);
    this.record({ type: 'status_changed', from, to, reason }, now);
    // A run that waits for a person or has ended gives its slot to the next in line. Should this
    // message be lost, the queue's own check finds the run no longer running.
    const ended = FINAL_STATUSES.includes(to);
    if (ended || to === 'paused_for_user_action') {
      const run = this.store.summary();
      const runId = run?.id;
      // An ended run's spent is final: its batch's owner records it and frees what it held for it.
      if (run && ended) this.ctx.waitUntil(this.budget.settle(run, now, true));
      if (runId)
        this.ctx.waitUntil(
          queueFor(this.env)
            .release(runId, { ended })
            .catch((err: unknown) =>
              console.error(`run ${runId}: the queue did not take its slot back: ${String(err)}`),
            ),
        );
    }
  }

  /**
   * A paused run goes on: it waits for a slot again, ahead of runs that never started, and advances at
   * once when one is free. Should the queue not answer, the run goes on anyway rather than hang.
   */
  async requeue(from: RunStatus, now: number, reason: string): Promise<void> {
    const runId = this.store.summary()!.id;
    this.transition(from, 'queued', now, reason);
    const grant = await queueFor(this.env)
      .admit(runId, { provider: null, limit: null, front: true, startsItself: true })
      .catch((err: unknown) => {
        console.error(`run ${runId}: the queue did not answer, starting anyway: ${String(err)}`);
        return { started: true, position: null };
      });
    if (grant.started) this.schedule.nextAdvance(now);
    else this.sockets.queuePosition(grant.position);
  }

  /** Ends the run with one run_complete. */
  finish(from: RunStatus, status: 'completed' | 'failed' | 'stopped', now: number, reason: string): void {
    if (FINAL_STATUSES.includes(from)) return;
    this.transition(from, status, now, reason);
    this.store.update({ endedAt: now, ...(status === 'failed' ? { lastError: reason } : {}) }, now);
    this.record({ type: 'run_complete', status, levelsSolved: this.store.summary()?.levelsSolved ?? 0, reason }, now);
  }

  fail(run: RunSummary, message: string): void {
    const now = Date.now();
    this.record({ type: 'error', code: 'run_failed', message, level: run.currentLevel }, now);
    this.finish(run.status, 'failed', now, message);
  }

  /** Pauses for a reason the worker itself found (the proxy stays down, bad settings). */
  pauseRun(run: RunSummary, reason: PendingAction['reason'], message: string, breach?: BudgetBreach): void {
    const now = Date.now();
    const pending = { ...this.pauseFor(run, reason, message), ...(breach ? { breach } : {}) };
    this.store.update({ pendingAction: pending, lastError: message }, now);
    this.transition(run.status, 'paused_for_user_action', now, reason);
    this.record({ type: 'user_action_required', ...pending }, now);
    this.handsOff(now);
  }

  /**
   * A run told to stop where it would wait for a person (onPause "stop", as a batch's hands-off
   * runs are) answers its own pause with stop, so the log says why it ended.
   */
  handsOff(now: number): boolean {
    const run = this.store.summary();
    if (run?.status !== 'paused_for_user_action' || run.config.onPause !== 'stop') return false;
    // A person asked for this pause (a takeover, a human run's turn): it is theirs to answer, not the run's.
    const asked = this.store.pendingAction()?.reason;
    if (asked === 'takeover' || asked === 'human_turn') return false;
    const pending = this.store.pendingAction();
    const breach = pending?.breach;
    // At a budget pause, the cap it stopped at, with the spent and the limit (issue 31's limit reason).
    const reason = breach
      ? `budget_exceeded: ${breach.cap}, ${formatCapValue(breach.cap, breach.spent)} spent of ${formatCapValue(breach.cap, breach.limit)}`
      : run.lastError
        ? `${pending?.reason ?? 'paused'}: ${run.lastError}`
        : (pending?.reason ?? 'paused');
    this.resolvePause({ action: 'stop', by: 'onPause' }, now);
    this.finish(run.status, 'stopped', now, `stopped where it would have paused (onPause "stop"; ${reason})`);
    return true;
  }

  resolvePause(resolved: { action: 'continue' | 'password' | 'stop'; by: string; hint?: string }, now: number): void {
    this.store.update({ pendingAction: null }, now);
    this.record({ type: 'user_action_resolved', ...resolved }, now);
  }

  pauseFor(run: RunSummary, reason: PendingAction['reason'], lastError: string | null): PendingAction {
    return {
      reason,
      level: run.currentLevel,
      retryCount: 0,
      maxRetries: run.config.maxRetries,
      lastError,
      lessons: [],
    };
  }
}
