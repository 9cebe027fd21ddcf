// What the CLI answers when a run pauses at a budget cap (--on-budget), and how a run that stopped at
// one is told from other stops (its exit code and summary). Pure, so the decisions are tested alone.
import {
  breachText,
  capNameSchema,
  costCapSchema,
  formatCapValue,
  LIMIT_TEXT,
  RUN_CAPS,
  raisedLimit,
  runCapsSchema,
  SPENT_OF_CAP,
} from '../schema/budget.ts';
import type { BudgetBreach, CapName, RunCap } from '../schema/budget.ts';
import type { PendingAction } from '../schema/protocol.ts';
import type { RunRecord } from '../schema/run-record.ts';
import { spentOf } from '../schema/run-spend.ts';
import type { RunAction } from '../schema/run.ts';
import type { OnBudget } from './budget-flags.ts';
import { parseDuration } from './budget-flags.ts';

/** Ask a person (the pause prompt), or answer with `action`, saying `note` on the terminal. */
export type BudgetDecision = { kind: 'ask' } | { kind: 'answer'; action: RunAction; note: string };

/** The raise action setting one cap (a run's cap, or its batch's cost cap) to `value`; the others stay. */
export function raiseAction(cap: CapName, value: number): RunAction {
  if (cap === 'batchMaxCostUsd') return { action: 'raise', batchMaxCostUsd: value };
  return { action: 'raise', caps: { [cap as RunCap]: value } };
}

/**
 * The answer --on-budget gives at a budget pause. `raised` holds the limits this CLI already raised caps
 * to: raise=X raises each cap once, and a second hit of the same cap stops the run. A batch's cost cap is
 * one for all its runs: a run that paused at it before another run's raise is answered with that raise.
 */
export function decideBudget(
  policy: OnBudget,
  pending: PendingAction,
  raised: ReadonlyMap<CapName, number>,
): BudgetDecision {
  const breach = pending.breach;
  if (policy.kind === 'ask') return { kind: 'ask' };
  const said = breach ? breachText(breach) : 'paused at a budget cap';
  if (policy.kind === 'stop' || !breach)
    return { kind: 'answer', action: { action: 'stop' }, note: `${said}. --on-budget stop: stopping the run.` };
  const before = raised.get(breach.cap);
  if (before !== undefined && breach.limit < before)
    return {
      kind: 'answer',
      action: raiseAction(breach.cap, before),
      note: `${said}. ${LIMIT_TEXT[breach.cap]} was already raised to ${formatCapValue(breach.cap, before)}: going on.`,
    };
  if (before !== undefined)
    return {
      kind: 'answer',
      action: { action: 'stop' },
      note: `${LIMIT_TEXT[breach.cap]} was hit again after it was raised once (--on-budget raise=${policy.factor}): stopping the run. ${said}.`,
    };
  const value = raisedLimit(breach, policy.factor);
  return {
    kind: 'answer',
    action: raiseAction(breach.cap, value),
    note: `${said}. --on-budget raise=${policy.factor}: ${LIMIT_TEXT[breach.cap]} raised from ${formatCapValue(breach.cap, breach.limit)} to ${formatCapValue(breach.cap, value)}.`,
  };
}

/** The caps a raise sets and their new limits, for the once-per-cap count. */
export function raisedBy(action: RunAction): [CapName, number][] {
  if (action.action !== 'raise') return [];
  const caps: [CapName, number][] = RUN_CAPS.flatMap((cap) => {
    const value = action.caps?.[cap];
    return value === undefined ? [] : [[cap, value] as [CapName, number]];
  });
  return action.batchMaxCostUsd !== undefined ? [...caps, ['batchMaxCostUsd', action.batchMaxCostUsd]] : caps;
}

/** The cap a run stopped at, from the one fold's limit reason (schema/run-record.ts); null for every other end. */
export function budgetCapOf(record: RunRecord): CapName | null {
  const limit = record.place.limit;
  return limit !== null && capNameSchema.safeParse(limit).success ? (limit as CapName) : null;
}

/** "stopped at the run's command cap (3 commands spent)", for the summary; the batch's cap says no figure. */
export function budgetStopText(cap: CapName, record: RunRecord): string {
  if (cap === 'batchMaxCostUsd') return `stopped at ${LIMIT_TEXT[cap]}`;
  const spent = spentOf(record, record.place.endedAt ?? record.place.lastAt ?? 0)[SPENT_OF_CAP[cap]];
  return `stopped at ${LIMIT_TEXT[cap]} (${formatCapValue(cap, spent)} spent)`;
}

/**
 * A new limit typed at the prompt for `breach`'s cap: dollars (a leading $ is fine), a duration for the
 * time cap (90, 90s, 15m, 2h), else a whole number; above the current limit. A string says what is wrong.
 */
export function limitFromText(breach: BudgetBreach, text: string): number | string {
  const cap = breach.cap;
  const trimmed = text.trim().replace(/^\$/, '');
  const value =
    cap === 'maxWallSeconds' ? parseDuration(trimmed) : /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) : null;
  if (value === null) return cap === 'maxWallSeconds' ? 'type seconds, or like 90s, 15m or 2h' : 'type a number';
  const rule = cap === 'batchMaxCostUsd' ? costCapSchema : runCapsSchema.shape[cap];
  const parsed = rule.safeParse(value);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'is not a valid limit';
  if (value <= breach.limit) return `type more than the current limit, ${formatCapValue(cap, breach.limit)}`;
  return value;
}
