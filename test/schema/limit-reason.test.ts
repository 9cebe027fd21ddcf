// Why a run or a level ended unsolved, from the one fold: the cap a budget pause named, the retries,
// a stop, a failure; nothing for a completed run or a solved level.
import { describe, expect, it } from 'vitest';
import type { CapName } from '../../schema/budget.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { recordOf, runTotals } from '../../schema/run-record.ts';

let seq = 0;
const ev = (e: Record<string, unknown>) =>
  ({
    seq: ++seq,
    runId: 'run_limitlimitlimitlimit1',
    ts: new Date(1_800_000_000_000 + seq).toISOString(),
    ...e,
  }) as RunEvent;
const started = () => [
  ev({ type: 'status_changed', from: 'queued', to: 'running' }),
  ev({ type: 'level_started', level: 0, attempt: 1 }),
  ev({ type: 'level_complete', level: 0, password: 'x', durationMs: 5 }),
  ev({ type: 'level_started', level: 1, attempt: 1 }),
];
const pause = (reason: string, cap?: CapName) =>
  ev({
    type: 'user_action_required',
    reason,
    level: 1,
    retryCount: 3,
    maxRetries: 3,
    lastError: null,
    lessons: [],
    ...(cap ? { breach: { cap, spent: 1, limit: 1, next: 0.1 } } : {}),
  });
const stop = () => ev({ type: 'user_action_resolved', action: 'stop', by: 'rest' });
const end = (status: string) => ev({ type: 'run_complete', status, levelsSolved: 1 });

const limits = (log: RunEvent[]) => {
  const record = recordOf(log);
  return { run: runTotals(record).limit, levels: [...record.levels.values()].map((f) => f.limit) };
};

describe('limit reasons', () => {
  it('names the cap of the budget pause a run was stopped at, on the run and on its unsolved level', () => {
    expect(limits([...started(), pause('budget_exceeded', 'maxCostUsd'), stop(), end('stopped')])).toEqual({
      run: 'maxCostUsd',
      levels: [null, 'maxCostUsd'],
    });
    expect(limits([...started(), pause('budget_exceeded', 'batchMaxCostUsd'), end('stopped')]).run).toBe(
      'batchMaxCostUsd',
    );
  });

  it('says max_retries, stopped or failed otherwise, and nothing for a completed run', () => {
    expect(limits([...started(), pause('max_retries'), stop(), end('stopped')]).run).toBe('max_retries');
    expect(limits([...started(), pause('llm_error'), stop(), end('stopped')]).run).toBe('stopped');
    expect(limits([...started(), end('stopped')]).run).toBe('stopped');
    expect(limits([...started(), end('failed')])).toEqual({ run: 'failed', levels: [null, 'failed'] });
    expect(limits(started())).toEqual({ run: null, levels: [null, null] });
    const done = [
      ...started(),
      ev({ type: 'level_complete', level: 1, password: 'y', durationMs: 5 }),
      end('completed'),
    ];
    expect(limits(done)).toEqual({ run: null, levels: [null, null] });
  });

  it('forgets a budget pause that was raised and went on', () => {
    const raised = [
      ...started(),
      pause('budget_exceeded', 'maxTokens'),
      ev({ type: 'user_action_resolved', action: 'continue', by: 'rest' }),
      pause('max_retries'),
      stop(),
      end('stopped'),
    ];
    expect(limits(raised).run).toBe('max_retries');
  });
});
