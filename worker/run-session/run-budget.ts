// What a run may spend and has spent (issue 31). Its caps as raised live in its object's SQLite; what it
// has spent comes from the one fold over its log (schema/run-spend.ts). With each advance the proxy is
// handed {caps, spent, batch?}, the batch's share granted by the queue, which owns the batch's cap.
import type { AdvanceSpend, RunCaps, RunSpend, Spent } from '../../schema/budget.ts';
import { runCapsSchema } from '../../schema/budget.ts';
import type { RunConfig, RunSummary } from '../../schema/run.ts';
import { spentOf } from '../../schema/run-spend.ts';
import type { LevelStats } from '../level-stats.ts';
import { queueFor } from '../run-queue.ts';

type BudgetRow = { caps: string | null; need_usd: number | null; batch: string | null; batch_capped: number | null };
type BatchView = NonNullable<RunSpend['batch']>;

/** One run's caps, spent figures and its batch's share (tables: object-sql/schema.ts `budget`). */
export class RunBudget {
  private readonly sql: SqlStorage;
  private readonly levels: LevelStats;
  private readonly env: Env;

  constructor(sql: SqlStorage, levels: LevelStats, env: Env) {
    this.sql = sql;
    this.levels = levels;
    this.env = env;
  }

  /** The run's caps now: the config's, with every raise applied. */
  caps(config: RunConfig): RunCaps {
    const stored = this.row()?.caps;
    const raised = stored ? runCapsSchema.safeParse(JSON.parse(stored)) : null;
    return raised?.success ? raised.data : (config.caps ?? {});
  }

  /** Stores the caps a raise made. */
  setCaps(caps: RunCaps): void {
    this.write('caps', JSON.stringify(caps));
  }

  /** What the run has spent at `now`, from the fold. */
  spent(now: number): Spent {
    return spentOf(this.levels.record, now);
  }

  /** The run's caps and spent figures, and its batch's cap as last heard (GET /api/runs/:id, the snapshot). */
  view(run: RunSummary, now: number): RunSpend {
    return { caps: this.caps(run.config), spent: this.spent(now), batch: this.batchHeard(run) };
  }

  /** Asks the queue for the batch's cap and spent now, for view(); a queue that does not answer keeps the last heard. */
  async refreshBatch(run: RunSummary): Promise<void> {
    const batchId = this.cappedBatch(run);
    if (!batchId) return;
    try {
      const budget = await queueFor(this.env).batchBudget(batchId);
      this.hearBatch(budget && { id: batchId, maxCostUsd: budget.maxCostUsd, spentUsd: budget.spentUsd });
    } catch (err) {
      console.error(`run ${run.id}: the queue did not say batch ${batchId}'s budget: ${String(err)}`);
    }
  }

  /**
   * What to hand the proxy with the next advance (`spend` undefined: the run has no cap and its batch
   * none). For a run of a batch this reserves the call's share, at least what a yielded call asked for;
   * when the batch cannot spare that yet (its other runs hold the rest for their calls) the answer is to
   * wait, and no call is made. Throws when the queue does not answer.
   */
  async forAdvance(run: RunSummary, now: number): Promise<{ spend: AdvanceSpend | undefined } | { waitUsd: number }> {
    const caps = this.caps(run.config);
    const spent = this.spent(now);
    const batchId = this.cappedBatch(run);
    let batch: AdvanceSpend['batch'];
    if (batchId) {
      const need = this.row()?.need_usd ?? 0;
      const grant = await queueFor(this.env).reserveBatch(batchId, run.id, spent.costUsd, need);
      this.hearBatch(grant && { id: batchId, maxCostUsd: grant.maxCostUsd, spentUsd: grant.spentUsd });
      // A batch's cap is set when it is made, or never: a batch without one is not asked again.
      this.write('batch_capped', grant ? 1 : 0);
      // A call given less than it said it needs would only yield again; one the batch can never fund pauses there.
      if (grant && !grant.exhaustive && grant.allowanceUsd < need) return { waitUsd: need };
      this.write('need_usd', null);
      batch = grant ?? undefined;
    }
    if (!batch && Object.keys(caps).length === 0) return { spend: undefined };
    return { spend: { caps, spent, ...(batch ? { batch } : {}) } };
  }

  /** A call yielded for more of its batch's money: the next reservation asks for `usd`. */
  needMore(usd: number): void {
    this.write('need_usd', usd);
  }

  /** A call (or the run) ended: the batch's owner frees its reservation and records what it spent. Never throws. */
  async settle(run: RunSummary, now: number, ended = false): Promise<void> {
    const batchId = this.cappedBatch(run);
    if (!batchId) return;
    try {
      await queueFor(this.env).settleBatch(batchId, run.id, this.spent(now).costUsd, ended);
    } catch (err) {
      // The next reservation records the same total; the queue's reservation for this run waits until then.
      console.error(`run ${run.id}: the queue did not settle batch ${batchId}'s budget: ${String(err)}`);
    }
  }

  /** The run's batch, unless the queue has said it has no cap (then it never will: its cap is set when it is made). */
  private cappedBatch(run: RunSummary): string | null {
    const batchId = run.config.batchId;
    return batchId && this.row()?.batch_capped !== 0 ? batchId : null;
  }

  private batchHeard(run: RunSummary): BatchView | null {
    const text = run.config.batchId ? this.row()?.batch : null;
    return text ? (JSON.parse(text) as BatchView) : null;
  }

  private hearBatch(batch: BatchView | null): void {
    this.write('batch', batch && JSON.stringify(batch));
  }

  private row(): BudgetRow | undefined {
    return this.sql
      .exec<BudgetRow>('SELECT caps, need_usd, batch, batch_capped FROM budget WHERE singleton = 1')
      .toArray()[0];
  }

  private write(column: 'caps' | 'need_usd' | 'batch' | 'batch_capped', value: string | number | null): void {
    this.sql.exec('INSERT OR IGNORE INTO budget (singleton) VALUES (1)');
    this.sql.exec(`UPDATE budget SET ${column} = ? WHERE singleton = 1`, value);
  }
}
