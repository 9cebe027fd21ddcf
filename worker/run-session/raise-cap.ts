// The raise action (issue 31): a person at a budget pause gives new limits for the run's caps, or its
// batch's cost cap; each must be above what is spent against it. The caps are stored, the raise is
// logged (caps_raised), and the run goes on where it paused, as a continue would.
import type { BudgetBreach, RunCaps, Spent } from '../../schema/budget.ts';
import { formatCapValue, LIMIT_TEXT, RUN_CAPS, SPENT_OF_CAP } from '../../schema/budget.ts';
import type { RunAction, RunSummary } from '../../schema/run.ts';
import { errorText } from '../error-text.ts';
import { queueFor } from '../run-queue.ts';

type Raise = Extract<RunAction, { action: 'raise' }>;

/** Why an action was refused: `invalid` (HTTP 400, the body asks for something wrong) or `conflict` (409). */
export type Refusal = { code: 'invalid' | 'conflict'; message: string };

/**
 * Why the raise asks for something that cannot be: no cap named, the cap the pause named left as it was,
 * or a limit not above what is already spent (the run's, or for the batch's cap, the batch's). Null when fine.
 */
export function raiseProblem(raise: Raise, breach: BudgetBreach | undefined, spent: Spent): string | null {
  const caps = raise.caps ?? {};
  const named = RUN_CAPS.filter((cap) => caps[cap] !== undefined);
  if (named.length === 0 && raise.batchMaxCostUsd === undefined)
    return 'a raise names at least one new limit: {"action":"raise","caps":{"maxCostUsd":5}} (or "batchMaxCostUsd")';
  if (breach) {
    const raised = breach.cap === 'batchMaxCostUsd' ? raise.batchMaxCostUsd !== undefined : named.includes(breach.cap);
    if (!raised)
      return `the run paused at ${LIMIT_TEXT[breach.cap]} (${breach.cap}); the raise must give it a new limit, above ${formatCapValue(breach.cap, breach.spent)}`;
  }
  for (const cap of named) {
    const limit = caps[cap] as number;
    const used = spent[SPENT_OF_CAP[cap]];
    if (limit <= used)
      return `${cap}: ${formatCapValue(cap, limit)} is not above what the run has spent against it (${formatCapValue(cap, used)}); ask for more than that`;
  }
  return null;
}

/**
 * Gives the run's batch the new cost cap a raise asked for. Null when done (or not asked); a refusal when
 * the run has no batch, the batch has no cap, the new cap is not above what its runs spent, or the queue
 * did not answer.
 */
export async function raiseBatchCap(
  env: Env,
  run: RunSummary,
  maxCostUsd: number | undefined,
): Promise<Refusal | null> {
  if (maxCostUsd === undefined) return null;
  const batchId = run.config.batchId;
  if (!batchId)
    return { code: 'invalid', message: 'batchMaxCostUsd: this run is in no batch; raise its own caps ("caps")' };
  try {
    // The queue checks the new cap against what the batch's runs have spent, in the step that sets it.
    const raised = await queueFor(env).raiseBatch(batchId, maxCostUsd);
    return raised.ok ? null : { code: 'invalid', message: raised.message };
  } catch (err) {
    return {
      code: 'conflict',
      message: `the batch's cap was not raised: ${errorText(err)}; nothing was changed, try again`,
    };
  }
}

/** The caps after a raise: the ones named take their new limits, the rest stay. */
export function raisedCaps(current: RunCaps, raise: Raise): RunCaps {
  return { ...current, ...(raise.caps ?? {}) };
}
