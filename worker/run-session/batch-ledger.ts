// The batch's side of a run's budget (issue 31): the RunQueue owns each batch's cost cap and what its
// runs have spent, and grants each call a share of what is left. Typed here so the run's object needs
// only these four questions of it.
import type { AdvanceSpend } from '../../schema/budget.ts';
import { queueFor } from '../run-queue.ts';

/** What the queue grants a run's call: its allowance, whether that is all the batch has left, and the batch's figures. */
export type BatchGrant = NonNullable<AdvanceSpend['batch']>;

/** The RunQueue's batch budget RPCs, as a run's object calls them. */
export type BatchLedger = {
  /** Records the run's total spent, frees its old reservation, grants the next call's share; null: no cap. */
  reserveBatch(batchId: string, runId: string, spentUsd: number, needUsd: number): Promise<BatchGrant | null>;
  /** The call ended: its reservation is freed and the run's spent recorded. */
  settleBatch(batchId: string, runId: string, spentUsd: number): Promise<unknown>;
  /** A new cost cap for the batch. */
  raiseBatch(batchId: string, maxCostUsd: number): Promise<unknown>;
  /** The batch's cap and what its runs have spent; null when it has no cap. */
  batchBudget(batchId: string): Promise<{ maxCostUsd: number; spentUsd: number } | null>;
};

/** The queue, asked as the batches' ledger. */
export function batchLedger(env: Env): BatchLedger {
  return queueFor(env) as unknown as BatchLedger;
}
