// Issue 31's action rules alone, without a run: which answers a budget pause takes (run-actions.ts) and
// what a raise must ask for (raise-cap.ts), with the sentences a person reads.
import { describe, expect, it } from 'vitest';
import type { BudgetBreach } from '../../schema/budget.ts';
import { NOTHING_SPENT } from '../../schema/budget.ts';
import type { PendingAction } from '../../schema/protocol.ts';
import { raisedCaps, raiseProblem } from '../../worker/run-session/raise-cap.ts';
import { refuseAction } from '../../worker/run-session/run-actions.ts';

const pauseAt = (reason: PendingAction['reason'], breach?: BudgetBreach): PendingAction => ({
  reason,
  level: 4,
  retryCount: 0,
  maxRetries: 3,
  lastError: null,
  lessons: [],
  ...(breach ? { breach } : {}),
});
const costBreach: BudgetBreach = { cap: 'maxCostUsd', spent: 1.9, limit: 2, next: 0.2 };
const batchBreach: BudgetBreach = { cap: 'batchMaxCostUsd', spent: 19.5, limit: 20, next: 0.7 };
const paused = 'paused_for_user_action' as const;

describe('answers to a budget pause', () => {
  it('takes raise and stop; refuses continue, password and resume, saying how to raise the cap it names', () => {
    const atCost = pauseAt('budget_exceeded', costBreach);
    expect(refuseAction('raise', paused, atCost)).toBeNull();
    expect(refuseAction('stop', paused, atCost)).toBeNull();
    expect(refuseAction('message', paused, atCost)).toBeNull();
    for (const action of ['continue', 'password', 'resume'] as const)
      expect(refuseAction(action, paused, atCost)).toBe(
        `the run is paused at the run's cost cap: going on would cross it; raise the cap ({"action":"raise","caps":{"maxCostUsd":…}}) or stop`,
      );
    expect(refuseAction('continue', paused, pauseAt('budget_exceeded', batchBreach))).toBe(
      `the run is paused at the batch's cost cap: going on would cross it; raise the cap ({"action":"raise","batchMaxCostUsd":…}) or stop`,
    );
  });

  it('refuses raise anywhere else, naming the state', () => {
    expect(refuseAction('raise', 'running', null)).toBe(
      'the run is running; "raise" answers a run paused at a budget cap (budget_exceeded)',
    );
    expect(refuseAction('raise', paused, pauseAt('max_retries'))).toBe(
      'the run is paused_for_user_action (max_retries); "raise" answers a run paused at a budget cap (budget_exceeded)',
    );
    expect(refuseAction('raise', 'stopped', null)).toBe('the run is already stopped; start a new run instead');
    // Other pauses answer as before.
    expect(refuseAction('continue', paused, pauseAt('max_retries'))).toBeNull();
  });
});

describe('what a raise must ask for', () => {
  const spent = { ...NOTHING_SPENT, costUsd: 1.9, commands: 40, tokens: 90_000 };

  it('a new limit for the cap the pause named, above what is spent against every cap it names', () => {
    expect(raiseProblem({ action: 'raise', caps: { maxCostUsd: 3 } }, costBreach, spent)).toBeNull();
    expect(raiseProblem({ action: 'raise', caps: { maxCostUsd: 1.9 } }, costBreach, spent)).toBe(
      'maxCostUsd: $1.90 is not above what the run has spent against it ($1.90); ask for more than that',
    );
    expect(raiseProblem({ action: 'raise', caps: { maxCostUsd: 3, maxCommands: 40 } }, costBreach, spent)).toBe(
      'maxCommands: 40 commands is not above what the run has spent against it (40 commands); ask for more than that',
    );
    expect(raiseProblem({ action: 'raise', caps: { maxTokens: 200_000 } }, costBreach, spent)).toBe(
      "the run paused at the run's cost cap (maxCostUsd); the raise must give it a new limit, above $1.90",
    );
    expect(raiseProblem({ action: 'raise', caps: { maxCostUsd: 3 } }, batchBreach, spent)).toContain(
      "the run paused at the batch's cost cap (batchMaxCostUsd)",
    );
    expect(raiseProblem({ action: 'raise', batchMaxCostUsd: 30 }, batchBreach, spent)).toBeNull();
    expect(raiseProblem({ action: 'raise', caps: {} }, costBreach, spent)).toContain(
      'a raise names at least one new limit',
    );
  });

  it('keeps the caps it does not name', () => {
    expect(raisedCaps({ maxCostUsd: 2, maxCommands: 50 }, { action: 'raise', caps: { maxCostUsd: 3 } })).toEqual({
      maxCostUsd: 3,
      maxCommands: 50,
    });
  });
});
