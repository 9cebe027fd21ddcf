// spentOf: a run's spent figures from its fold, the time it waited for a person left out of wall time.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { recordOf } from '../../schema/run-record.ts';
import { spentOf } from '../../schema/run-spend.ts';

const T0 = Date.parse('2026-11-25T00:00:00.000Z');
let seq = 0;
const at = (s: number, e: Record<string, unknown>) =>
  ({ seq: ++seq, runId: 'run_spendspendspendspend1', ts: new Date(T0 + s * 1000).toISOString(), ...e }) as RunEvent;
const call = (s: number, level: number, prompt: number, completion: number, cost: number | null) =>
  at(s, {
    type: 'llm_call',
    callId: `c${seq}`,
    model: 'beta/solver',
    stage: 'plan',
    level,
    promptTokens: prompt,
    completionTokens: completion,
    latencyMs: 5,
    costUsd: cost,
    errorClass: cost === null ? 'server_error' : null,
  });
const pause = (s: number, level: number) =>
  at(s, {
    type: 'user_action_required',
    reason: 'budget_exceeded',
    level,
    retryCount: 0,
    maxRetries: 3,
    lastError: null,
    lessons: [],
  });

describe('spentOf', () => {
  const log = [
    at(0, { type: 'status_changed', from: 'queued', to: 'running' }),
    call(1, 0, 100, 20, 0.001),
    at(2, { type: 'command', level: 0, commandId: 'x1', command: 'ls' }),
    call(3, 0, 150, 30, null),
    pause(10, 0),
    at(60, { type: 'user_action_resolved', action: 'continue', by: 'rest' }),
    // Answered at 60, back in the queue until 70: still not running.
    at(60, { type: 'status_changed', from: 'paused_for_user_action', to: 'queued' }),
    at(70, { type: 'status_changed', from: 'queued', to: 'running' }),
    at(71, { type: 'command', level: 1, commandId: 'x2', command: 'cat readme' }),
    call(75, 1, 200, 40, 0.002),
    pause(80, 1),
  ];
  const record = recordOf(log);

  it('sums cost, tokens, commands and model calls (failed calls counted) over every level', () => {
    const spent = spentOf(record, T0 + 100_000);
    expect(spent).toMatchObject({ costUsd: 0.003, tokens: 540, commands: 2, modelCalls: 3 });
  });

  it('counts wall time from the start, less pauses (until the run runs again) and the open one', () => {
    // 0→10 running, 10→70 paused then queued, 70→80 running, 80→now paused: 20 s.
    expect(spentOf(record, T0 + 100_000).wallSeconds).toBe(20);
    expect(spentOf(record, T0 + 500_000).wallSeconds).toBe(20);
    const answered = recordOf([at(90, { type: 'user_action_resolved', action: 'continue', by: 'rest' })], record);
    expect(spentOf(answered, T0 + 95_000).wallSeconds).toBe(20);
    const resumed = recordOf([at(92, { type: 'status_changed', from: 'queued', to: 'running' })], answered);
    expect(spentOf(resumed, T0 + 95_000).wallSeconds).toBe(23);
  });

  it('is zero for a run that never started', () => {
    expect(spentOf(recordOf([]), T0)).toEqual({ costUsd: 0, tokens: 0, wallSeconds: 0, commands: 0, modelCalls: 0 });
  });
});
