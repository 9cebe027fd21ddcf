// The CLI's answers at a budget pause (--on-budget): stop, raise the cap hit by X once and stop at its
// second hit, ask a person; the limit a person types; and how a run that stopped at a cap is told
// from other stops in its event log.
import { describe, expect, it } from 'vitest';
import { budgetCapOf, budgetStopText, raisedBy, decideBudget, limitFromText } from '../../cli/budget-answer.ts';
import type { BudgetBreach, CapName } from '../../schema/budget.ts';
import { raisedLimit } from '../../schema/budget.ts';
import type { PendingAction, RunEvent } from '../../schema/protocol.ts';
import { recordOf } from '../../schema/run-record.ts';

const pause = (breach?: BudgetBreach): PendingAction => ({
  reason: 'budget_exceeded',
  level: 0,
  retryCount: 0,
  maxRetries: 3,
  lastError: null,
  lessons: [],
  ...(breach ? { breach } : {}),
});
const commands: BudgetBreach = { cap: 'maxCommands', spent: 3, limit: 3, next: 1 };
const none = new Map<CapName, number>();

describe('decideBudget', () => {
  it('stop answers stop and says the breach', () => {
    const d = decideBudget({ kind: 'stop' }, pause(commands), none);
    expect(d).toMatchObject({ kind: 'answer', action: { action: 'stop' } });
    expect(d.kind === 'answer' && d.note).toMatch(/^paused at the run's command cap: 3 commands spent of 3 commands/);
  });

  it('raise=X raises the cap hit by X, then stops at its second hit', () => {
    const raised = new Map<CapName, number>();
    const first = decideBudget({ kind: 'raise', factor: 2 }, pause(commands), raised);
    expect(first).toMatchObject({ kind: 'answer', action: { action: 'raise', caps: { maxCommands: 6 } } });
    expect(first.kind === 'answer' && first.note).toMatch(/raised from 3 commands to 6 commands/);
    for (const [cap, to] of first.kind === 'answer' ? raisedBy(first.action) : []) raised.set(cap, to);
    expect([...raised]).toEqual([['maxCommands', 6]]);

    const again = decideBudget({ kind: 'raise', factor: 2 }, pause({ ...commands, spent: 6, limit: 6 }), raised);
    expect(again).toMatchObject({ kind: 'answer', action: { action: 'stop' } });
    expect(again.kind === 'answer' && again.note).toMatch(/was hit again after it was raised once/);

    // Another cap is raised once in its turn.
    const tokens = decideBudget(
      { kind: 'raise', factor: 1.5 },
      pause({ cap: 'maxTokens', spent: 900, limit: 1001, next: 400 }),
      raised,
    );
    expect(tokens).toMatchObject({ action: { action: 'raise', caps: { maxTokens: 1502 } } });
  });

  it('raises a batch cap as batchMaxCostUsd', () => {
    const d = decideBudget(
      { kind: 'raise', factor: 2 },
      pause({ cap: 'batchMaxCostUsd', spent: 0.9, limit: 1, next: 0.2 }),
      none,
    );
    expect(d).toMatchObject({ action: { action: 'raise', batchMaxCostUsd: 2 } });
    expect(d.kind === 'answer' && raisedBy(d.action)).toEqual([['batchMaxCostUsd', 2]]);
  });

  it("answers a run that paused at the batch's cap before another run's raise with that raise", () => {
    const batch = (limit: number) => pause({ cap: 'batchMaxCostUsd', spent: limit, limit, next: 0.2 });
    const raised = new Map<CapName, number>([['batchMaxCostUsd', 2]]);
    const behind = decideBudget({ kind: 'raise', factor: 2 }, batch(1), raised);
    expect(behind).toMatchObject({ action: { action: 'raise', batchMaxCostUsd: 2 } });
    expect(behind.kind === 'answer' && behind.note).toMatch(/was already raised to \$2\.00: going on/);
    // At the raised cap itself, the cap was hit again: stop.
    expect(decideBudget({ kind: 'raise', factor: 2 }, batch(2), raised)).toMatchObject({ action: { action: 'stop' } });
  });

  it('ask leaves it to the prompt; a pause with no breach is stopped rather than raised blind', () => {
    expect(decideBudget({ kind: 'ask' }, pause(commands), none)).toEqual({ kind: 'ask' });
    expect(decideBudget({ kind: 'raise', factor: 2 }, pause(), none)).toMatchObject({ action: { action: 'stop' } });
  });

  it('rounds a raise up to what the cap takes', () => {
    const b = (cap: CapName, limit: number, spent = limit, next = 0) => ({ cap, limit, spent, next });
    expect(raisedLimit(b('maxWallSeconds', 45), 1.5)).toBe(68);
    expect(raisedLimit(b('maxCostUsd', 0.0003), 3)).toBe(0.0009);
    expect(raisedLimit(b('maxCostUsd', 1 / 3), 2)).toBe(0.666667);
    // Never less than what lets the held-back step run: a $0.02 cap whose next request could cost $0.041.
    expect(raisedLimit(b('maxCostUsd', 0.02, 0.001, 0.041), 2)).toBe(0.042);
    // A time cap passed by a long step: still above what is spent, as a raise must be.
    expect(raisedLimit(b('maxWallSeconds', 10, 31), 2)).toBe(32);
  });
});

describe('limitFromText', () => {
  it('reads the limit typed at the prompt, above the current one', () => {
    expect(limitFromText(commands, '10')).toBe(10);
    expect(limitFromText(commands, '3')).toBe('type more than the current limit, 3 commands');
    expect(limitFromText(commands, '4.5')).toBe('must be a whole number of commands');
    expect(limitFromText(commands, 'more')).toBe('type a number');
    const time = { cap: 'maxWallSeconds', spent: 60, limit: 60, next: 0 } as const;
    expect(limitFromText(time, '2m')).toBe(120);
    expect(limitFromText(time, 'soon')).toBe('type seconds, or like 90s, 15m or 2h');
    expect(limitFromText({ cap: 'batchMaxCostUsd', spent: 1, limit: 1, next: 0.1 }, '$2.5')).toBe(2.5);
  });
});

describe('budgetCapOf', () => {
  let seq = 0;
  const at = (event: Record<string, unknown>) =>
    ({ seq: ++seq, ts: `2026-01-01T00:00:0${seq % 10}.000Z`, runId: 'run_x', ...event }) as unknown as RunEvent;
  const required = (reason: string, breach?: BudgetBreach) =>
    at({ type: 'user_action_required', ...pause(breach), reason });
  const resolved = (action: string) => at({ type: 'user_action_resolved', action, by: 'the CLI' });
  const end = (status: string) => at({ type: 'run_complete', status, levelsSolved: 0 });
  const commandAt = () => at({ type: 'command', level: 0, command: 'ls' });

  it('names the cap of a run stopped at its budget pause, with what was spent', () => {
    const record = recordOf([
      at({ type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
      commandAt(),
      commandAt(),
      commandAt(),
      required('budget_exceeded', commands),
      resolved('stop'),
      end('stopped'),
    ]);
    expect(budgetCapOf(record)).toBe('maxCommands');
    expect(budgetStopText('maxCommands', record)).toBe("stopped at the run's command cap (3 commands spent)");
    expect(budgetStopText('batchMaxCostUsd', record)).toBe("stopped at the batch's cost cap");
  });

  it('is null for a raise that went on, another pause, or a run not stopped', () => {
    expect(
      budgetCapOf(
        recordOf([
          required('budget_exceeded', commands),
          resolved('continue'),
          required('max_retries'),
          resolved('stop'),
          end('stopped'),
        ]),
      ),
    ).toBeNull();
    expect(
      budgetCapOf(recordOf([required('budget_exceeded', commands), resolved('continue'), end('completed')])),
    ).toBeNull();
  });
});
