// RunQueue: the one scheduler (a single Durable Object, named "queue") that owns the line of runs
// waiting for a slot. A slot is free while fewer than MAX_RUNNING_RUNS runs run in all, and fewer
// than the provider's own limit run on its models. Runs start in line order as slots free. The
// line lives in the object's SQLite and its alarm pumps it, so a restart loses neither; the alarm
// also checks that every slot holder still runs, in case a release was lost on the way.
import { DurableObject } from 'cloudflare:workers';
import { maxRunningRuns } from './env.ts';
import type { QueueStatus } from '../schema/queue.ts';
import { QueueLine } from './queue-line.ts';
import type { Admission } from './queue-line.ts';
import { CreationBuckets } from './creation-buckets.ts';
import type { CreationGrant, CreationRate } from './creation-buckets.ts';
import { RunRegistry } from './run-registry.ts';
import { sessionFor } from './run-lookup.ts';
import { migrate } from './object-sql/migrate.ts';
import { runQueueMigrations } from './object-sql/run-queue-migrations.ts';
import { BatchLedger } from './batch-ledger.ts';
import { ObjectUsage } from './object-usage.ts';
import type { BatchBudget, BatchGrant } from '../schema/budget.ts';

/** How often the alarm checks the line while anything waits or runs. */
const CHECK_MS = 15_000;

export function queueFor(env: Env) {
  return env.RUN_QUEUE.get(env.RUN_QUEUE.idFromName('queue'));
}

export class RunQueue extends DurableObject<Env> {
  private readonly line: QueueLine;
  private readonly registry: RunRegistry;
  private readonly creations: CreationBuckets;
  private readonly ledger: BatchLedger;
  /** The place each waiting run was last told, so only changes are sent. Memory only: after a restart all are told again. */
  private readonly told = new Map<string, number | null>();

  /** What Cloudflare bills for the queue, counted in memory since the object started (GET /api/queue, issue 34). */
  private readonly usage = new ObjectUsage();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = this.usage.counted(ctx.storage.sql);
    migrate(ctx.storage, runQueueMigrations, Date.now(), { sql });
    this.line = new QueueLine(sql);
    this.registry = new RunRegistry(sql);
    this.creations = new CreationBuckets(sql);
    this.ledger = new BatchLedger(sql);
  }

  /** Gives a new batch its cost cap (POST /api/batches), before its runs are made. */
  async openBatch(batchId: string, maxCostUsd: number, runs: number): Promise<void> {
    this.usage.request();
    this.ledger.open(batchId, maxCostUsd, runs, Date.now());
  }

  /**
   * Before a run's call: records what the run has spent and reserves the batch's dollars for the call, in one
   * synchronous step (batch-ledger.ts). Null: the batch has no cap.
   */
  async reserveBatch(batchId: string, runId: string, spentUsd: number, needUsd: number): Promise<BatchGrant | null> {
    this.usage.request();
    const grant = this.ledger.reserve(batchId, runId, spentUsd, needUsd, {
      running: this.line.runningInBatch(batchId),
      concurrency: this.line.batchLimit(batchId) ?? maxRunningRuns(this.env),
    });
    if (grant?.exhaustive) this.ctx.waitUntil(this.holdWaiting(batchId));
    return grant;
  }

  /** The batch's cap is reached: each of its runs still in line pauses at it, saying why, instead of waiting on. */
  private async holdWaiting(batchId: string): Promise<void> {
    const budget = this.ledger.budget(batchId);
    if (!budget) return;
    const waiting = this.line.waiting().filter((m) => m.batchId === batchId);
    await Promise.all(
      waiting.map((m) =>
        sessionFor(this.env, m.runId)
          .holdAtBatchCap(budget)
          .catch((err: unknown) =>
            console.error(`queue: holding ${m.runId} at its batch's cap failed: ${String(err)}`),
          ),
      ),
    );
  }

  /** After a run's call, or at its end: its spend recorded, its reservation freed. */
  async settleBatch(batchId: string, runId: string, spentUsd: number, ended = false): Promise<void> {
    this.usage.request();
    this.ledger.settle(batchId, runId, spentUsd, ended);
  }

  /** A person raised the batch's cap: its waiting runs may start again. */
  async raiseBatch(batchId: string, maxCostUsd: number): Promise<{ ok: true } | { ok: false; message: string }> {
    this.usage.request();
    const raised = this.ledger.raise(batchId, maxCostUsd);
    if (raised.ok) await this.pump(null);
    return raised;
  }

  /** The batch's cap and spend, or null when it has none. */
  async batchBudget(batchId: string): Promise<BatchBudget | null> {
    this.usage.request();
    return this.ledger.budget(batchId);
  }

  /** Takes `count` run creations from the client's allowance (creation-limit.ts), all or none. */
  async takeCreations(client: string, count: number, rate: CreationRate): Promise<CreationGrant> {
    this.usage.request();
    return this.creations.take(client, count, rate, Date.now());
  }

  /** Notes a new run id before its object is made (run-lookup.ts answers 404 for ids never noted). */
  async register(runId: string): Promise<void> {
    this.usage.request();
    this.registry.add(runId, Date.now());
  }

  /** Whether a run with this id was made; reads only. */
  async knows(runId: string): Promise<boolean> {
    this.usage.request();
    return this.registry.has(runId);
  }

  /**
   * Puts a run in line and starts whatever fits. `startsItself`: the run is asking for itself, so it
   * is told whether it may start rather than called back. Other runs that fit are started here.
   */
  async admit(
    runId: string,
    admission: Admission & { startsItself: boolean },
  ): Promise<{ started: boolean; position: number | null }> {
    this.usage.request();
    this.line.admit(runId, admission, Date.now());
    const started = await this.pump(admission.startsItself ? runId : null);
    return { started: started.includes(runId), position: this.line.member(runId)?.position ?? null };
  }

  /** The run stopped using its slot: paused for a person (`ended` false) or finished. */
  async release(runId: string, how: { ended: boolean }): Promise<void> {
    this.usage.request();
    this.line.release(runId, how);
    this.told.delete(runId);
    await this.pump(null);
  }

  async status(): Promise<QueueStatus> {
    this.usage.request();
    const members = this.line.members();
    return {
      maxRunning: maxRunningRuns(this.env),
      running: members.filter((m) => m.state === 'running'),
      waiting: members.filter((m) => m.state === 'waiting'),
      hosting: this.usage.view(),
    };
  }

  override async alarm(): Promise<void> {
    this.usage.request();
    // A slot holder that is no longer running (its release never arrived) gives its slot back.
    for (const runId of this.line.running()) {
      const run = await sessionFor(this.env, runId)
        .summary()
        .catch(() => undefined);
      if (run === undefined) continue;
      if (run === null) this.line.release(runId, { ended: true });
      else if (run.status === 'queued') {
        // Given a slot but still queued: the start may have been cut short (a restart between the slot
        // and the run's own schedule), so it is asked again; start() is safe to repeat.
        // A false answer means it has moved on meanwhile; the next check reads its new status.
        await sessionFor(this.env, runId)
          .start()
          .catch(() => undefined);
      } else if (run.status !== 'running') this.line.release(runId, { ended: run.status !== 'paused_for_user_action' });
    }
    this.told.clear();
    await this.pump(null);
  }

  /** Starts every run that fits, then tells the waiting runs their new places. */
  private async pump(caller: string | null): Promise<string[]> {
    const started = this.line.take(maxRunningRuns(this.env), Date.now(), this.ledger.reachedBatches());
    for (const id of started) this.told.delete(id);
    await Promise.all(
      started
        .filter((id) => id !== caller)
        .map(async (id) => {
          // A run stopped while it waited (or gone) says no; its slot is freed for the next.
          const ok = await sessionFor(this.env, id)
            .start()
            .catch((err: unknown) => {
              console.error(`queue: starting ${id} failed: ${err instanceof Error ? err.message : String(err)}`);
              return false;
            });
          if (!ok) this.line.release(id, { ended: true });
        }),
    );
    if (started.some((id) => !this.line.member(id))) return [...started, ...(await this.pump(caller))];
    this.tellPlaces();
    this.usage.alarmWrite();
    if (this.line.busy()) await this.ctx.storage.setAlarm(Date.now() + CHECK_MS);
    else await this.ctx.storage.deleteAlarm();
    return started;
  }

  /** Each waiting run whose place changed hears it, without holding up the pump. */
  private tellPlaces(): void {
    // Only the line: with hundreds of runs holding slots, reading them all at every pump was quadratic.
    for (const member of this.line.waiting()) {
      if (this.told.get(member.runId) === member.position) continue;
      this.told.set(member.runId, member.position);
      this.ctx.waitUntil(
        sessionFor(this.env, member.runId)
          .queuePosition(member.position)
          .catch(() => undefined),
      );
    }
  }
}
