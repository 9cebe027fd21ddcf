// A batch's cost cap and what its runs spend against it, in the queue's SQLite (issue 31). The queue is
// the batch's one owner: a reservation is checked and taken in one synchronous step, so runs racing for
// the last dollars can never be granted more, in total, than the cap leaves.
import type { BatchGrant, BatchBudget } from '../schema/budget.ts';

type CapRow = { max_cost_usd: number; reached: number; runs: number };

/** The batch's money in one place: its cap, each run's settled spend and its reservation for the call in progress. */
export class BatchLedger {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Gives a new batch of `runs` runs its cap. */
  open(batchId: string, maxCostUsd: number, runs: number, now: number): void {
    this.sql.exec(
      'INSERT OR IGNORE INTO batch_caps (batch_id, max_cost_usd, reached, runs, created_at) VALUES (?, ?, 0, ?, ?)',
      batchId,
      maxCostUsd,
      runs,
      now,
    );
  }

  /**
   * The run's spend so far is recorded (it only grows), its old reservation freed, and a new one taken for its
   * next call: at least `needUsd` when the batch has that much unreserved, else nothing. What is left is shared
   * among the runs that can spend at once: those holding a slot (`running`), and at least as many of the runs
   * not ended as may run together (`concurrency`), so the run that starts first does not take it all while the
   * others are still being made. Null: the batch has no cap.
   */
  reserve(
    batchId: string,
    runId: string,
    spentUsd: number,
    needUsd: number,
    slots: { running: number; concurrency: number },
  ): BatchGrant | null {
    const cap = this.cap(batchId);
    if (!cap) return null;
    this.settle(batchId, runId, spentUsd);
    const { spent, reserved, ended } = this.totals(batchId);
    const left = Math.max(0, cap.max_cost_usd - spent);
    const available = Math.max(0, left - reserved);
    const sharers = Math.max(1, slots.running, Math.min(cap.runs - ended, slots.concurrency));
    const share = left / sharers;
    // A grant short of the need is no grant: a partial reservation held while waiting could starve another run.
    const grant = available >= needUsd ? Math.min(available, Math.max(needUsd, share)) : 0;
    this.sql.exec('UPDATE batch_spend SET reserved_usd = ? WHERE batch_id = ? AND run_id = ?', grant, batchId, runId);
    // Even with every reservation back the need would not fit: the cap is reached.
    const exhaustive = left < needUsd || (needUsd === 0 && left === 0);
    if (exhaustive) this.sql.exec('UPDATE batch_caps SET reached = 1 WHERE batch_id = ?', batchId);
    return { allowanceUsd: grant, exhaustive, spentUsd: spent, maxCostUsd: cap.max_cost_usd };
  }

  /** The run's call ended (or the run did): its spend recorded, its reservation freed. */
  settle(batchId: string, runId: string, spentUsd: number, ended = false): void {
    if (!this.cap(batchId)) return;
    this.sql.exec(
      `INSERT INTO batch_spend (batch_id, run_id, spent_usd, reserved_usd, ended) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT (batch_id, run_id) DO UPDATE SET spent_usd = MAX(spent_usd, excluded.spent_usd), reserved_usd = 0,
       ended = MAX(ended, excluded.ended)`,
      batchId,
      runId,
      spentUsd,
      ended ? 1 : 0,
    );
  }

  /** A new cap: above zero and not below what the runs have spent; the batch may start runs again. */
  raise(batchId: string, maxCostUsd: number): { ok: true } | { ok: false; message: string } {
    const cap = this.cap(batchId);
    if (!cap) return { ok: false, message: `batch ${batchId} has no cost cap to raise` };
    // Never lower: dollars already reserved under the cap in force may be spent in full.
    if (maxCostUsd < cap.max_cost_usd)
      return {
        ok: false,
        message: `batchMaxCostUsd: a raise cannot lower the cap; it is $${cap.max_cost_usd} now, asked $${maxCostUsd}`,
      };
    const { spent } = this.totals(batchId);
    if (!(maxCostUsd > spent))
      return {
        ok: false,
        message: `batchMaxCostUsd must be above what the batch's runs have already spent ($${spent.toFixed(4)}); asked $${maxCostUsd}`,
      };
    this.sql.exec('UPDATE batch_caps SET max_cost_usd = ?, reached = 0 WHERE batch_id = ?', maxCostUsd, batchId);
    return { ok: true };
  }

  /** The batch's cap and spend, or null when it has no cap. */
  budget(batchId: string): BatchBudget | null {
    const cap = this.cap(batchId);
    if (!cap) return null;
    const { spent, reserved } = this.totals(batchId);
    return { maxCostUsd: cap.max_cost_usd, spentUsd: spent, reservedUsd: reserved, reached: cap.reached === 1 };
  }

  /** Batches whose cap is reached: the queue starts none of their waiting runs. */
  reachedBatches(): Set<string> {
    return new Set(
      this.sql
        .exec<{ batch_id: string }>('SELECT batch_id FROM batch_caps WHERE reached = 1')
        .toArray()
        .map((r) => r.batch_id),
    );
  }

  private cap(batchId: string): CapRow | undefined {
    return this.sql
      .exec<CapRow>('SELECT max_cost_usd, reached, runs FROM batch_caps WHERE batch_id = ?', batchId)
      .toArray()[0];
  }

  private totals(batchId: string): { spent: number; reserved: number; ended: number } {
    return this.sql
      .exec<{ spent: number; reserved: number; ended: number }>(
        'SELECT COALESCE(SUM(spent_usd), 0) AS spent, COALESCE(SUM(reserved_usd), 0) AS reserved, COALESCE(SUM(ended), 0) AS ended FROM batch_spend WHERE batch_id = ?',
        batchId,
      )
      .one();
  }
}
