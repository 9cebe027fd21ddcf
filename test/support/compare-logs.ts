// Hand-made run logs for the comparison's tests (schema and CLI): a builder that numbers each event in
// the log it builds, a summary to go with one, and a three-level run.
import type { RunEvent } from '../../schema/protocol.ts';
import type { ComparedRun } from '../../schema/run-compare.ts';
import { runSummarySchema } from '../../schema/run.ts';

export const A = 'run_0aaaaaaaaaaaaaaaaaaaaaaaaa';
export const B = 'run_0bbbbbbbbbbbbbbbbbbbbbbbbb';

/** A log builder: each call numbers its event in the log it builds. */
export function log(runId: string) {
  const events: RunEvent[] = [];
  const push = (body: Record<string, unknown>) => {
    const seq = events.length + 1;
    events.push({ seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), runId, ...body } as RunEvent);
    return api;
  };
  const api = {
    events,
    started: (level: number, attempt = 1) => push({ type: 'level_started', level, attempt, retryCount: attempt - 1 }),
    cmd: (level: number, command: string) => push({ type: 'command', level, commandId: `c${events.length}`, command }),
    call: (level: number, promptTokens: number, costUsd: number) =>
      push({
        type: 'llm_call',
        callId: `call${events.length}`,
        model: 'm',
        stage: 'plan',
        level,
        promptTokens,
        completionTokens: 10,
        latencyMs: 5,
        costUsd,
        errorClass: null,
      }),
    failed: (level: number, attempt = 1) =>
      push({
        type: 'attempt_failed',
        level,
        attempt,
        retryCount: attempt,
        maxRetries: 1,
        reason: 'budget_spent',
        lessons: [],
      }),
    paused: (level: number) =>
      push({
        type: 'user_action_required',
        reason: 'max_retries',
        level,
        retryCount: 1,
        maxRetries: 1,
        lastError: null,
        lessons: [],
      }),
    stopped: () => push({ type: 'user_action_resolved', action: 'stop', by: 'person' }),
    answered: (hint?: string) =>
      push({ type: 'user_action_resolved', action: 'continue', by: 'person', ...(hint ? { hint } : {}) }),
    solved: (level: number) =>
      push({ type: 'level_complete', level, nextLevel: level + 1, commands: 1, durationMs: 1000 + level }),
    end: (status: 'completed' | 'stopped' | 'failed', levelsSolved: number) =>
      push({ type: 'run_complete', status, levelsSolved }),
  };
  return api;
}

export function run(id: string, events: RunEvent[], model = 'baseline'): ComparedRun {
  const summary = runSummarySchema.parse({
    id,
    config: { target: 'practice', startLevel: 0, endLevel: 3, model, maxRetries: 1, budget: 15 },
    status: 'completed',
    currentLevel: 0,
    levelsSolved: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    endedAt: null,
    lastError: null,
  });
  return { run: summary, events };
}

/** Levels 0..2, solved in turn; level 2 runs `third` as its fourth command (index 3 of the level's steps). */
export function threeLevels(runId: string, third = 'cat ./-') {
  return log(runId)
    .started(0)
    .cmd(0, 'cat readme')
    .solved(0)
    .started(1)
    .cmd(1, 'ls -la')
    .call(1, 100, 0.01)
    .cmd(1, 'cat ./-')
    .solved(1)
    .started(2)
    .cmd(2, 'ls')
    .cmd(2, 'ls -la')
    .cmd(2, 'find . -type f')
    .cmd(2, third)
    .solved(2)
    .end('completed', 3);
}
