// The one fold over a run's log: each way a level can end, the figures per level and per run, and
// folding event by event equals folding at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEVEL_OUTCOMES } from '../../schema/level-outcome.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { foldRecord, levelFiguresSchema, levelResults, recordOf, runTotals } from '../../schema/run-record.ts';
import { runLogArbitrary } from '../support/run-log-arbitrary.ts';

let seq = 0;
const ev = (body: Record<string, unknown>): RunEvent =>
  ({ seq: ++seq, ts: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(), runId: 'run_x', ...body }) as RunEvent;
const started = (level: number, attempt = 1) => ev({ type: 'level_started', level, attempt, retryCount: attempt - 1 });
const paused = (level: number, reason = 'max_retries') =>
  ev({ type: 'user_action_required', reason, level, retryCount: 3, maxRetries: 3, lastError: null, lessons: [] });
const answered = (action: 'continue' | 'password' | 'stop', hint?: string) =>
  ev({ type: 'user_action_resolved', action, by: 'person', ...(hint ? { hint } : {}) });
const solved = (level: number, solvedBy?: string) =>
  ev({
    type: 'level_complete',
    level,
    nextLevel: level + 1,
    commands: 1,
    durationMs: 900,
    ...(solvedBy ? { solvedBy } : {}),
  });
const outcomes = (events: RunEvent[]) => levelResults(recordOf(events)).map((l) => [l.level, l.outcome]);

const sentMessage = (level: number) => ev({ type: 'message_sent', level, text: 'try `cat readme`', by: 'the CLI' });
const readMessage = (level: number, messageSeq: number) => ev({ type: 'message_read', level, messageSeq });

describe('level outcomes', () => {
  it("counts a person's message as help where the agent read it, and an unread one nowhere", () => {
    const message = sentMessage(3);
    const log = [started(3), message, readMessage(3, message.seq), solved(3), started(4), sentMessage(4), solved(4)];
    const levels = levelResults(recordOf(log));
    expect(levels.find((l) => l.level === 3)).toMatchObject({ messages: 1, hints: 0, outcome: 'solved_with_hint' });
    expect(levels.find((l) => l.level === 4)).toMatchObject({ messages: 0, outcome: 'solved_alone' });
    // Read at one level and proved at the next: help where it was read, not where the run went on.
    const early = sentMessage(5);
    expect(outcomes([started(5), early, readMessage(5, early.seq), solved(5), started(6), solved(6)])).toEqual([
      [5, 'solved_with_hint'],
      [6, 'solved_alone'],
    ]);
  });

  it('reads figures stored before messages were counted as none', () => {
    const { messages: _, ...old } = recordOf([started(0), solved(0)]).levels.get(0) ?? {};
    expect(levelFiguresSchema.parse(old)).toMatchObject({ messages: 0, solved: true });
  });

  it('tells the six endings apart, with a person outranking the agent', () => {
    expect(outcomes([started(0), solved(0, 'agent')])).toEqual([[0, 'solved_alone']]);
    // No solvedBy in older logs means the agent.
    expect(outcomes([started(0), solved(0)])).toEqual([[0, 'solved_alone']]);
    expect(outcomes([started(1), solved(1, 'final_attempt')])).toEqual([[1, 'solved_by_final_attempt']]);
    // The case the board and the archive disagreed on: a bare continue, then the agent solves it.
    expect(outcomes([started(2), paused(2), answered('continue'), started(2, 2), solved(2)])).toEqual([
      [2, 'solved_after_more_attempts'],
    ]);
    expect(outcomes([started(3), paused(3), answered('continue', 'try find'), solved(3, 'final_attempt')])).toEqual([
      [3, 'solved_with_hint'],
    ]);
    expect(outcomes([started(4), paused(4), answered('password'), solved(4, 'person')])).toEqual([
      [4, 'solved_with_password'],
    ]);
    // A password that failed, then the agent proved the level: the person let it go on.
    expect(outcomes([started(5), paused(5), answered('password'), paused(5), answered('continue'), solved(5)])).toEqual(
      [[5, 'solved_after_more_attempts']],
    );
    expect(outcomes([started(6), paused(6), answered('stop')])).toEqual([[6, 'not_solved']]);
  });

  it("counts a person's own pause answered by continue as an act, and a start's login password as none", () => {
    // Pause and resume (or continue) is a person acting at the level; the worker logs both as a continue.
    expect(outcomes([started(9), paused(9, 'user_requested'), answered('continue'), solved(9)])).toEqual([
      [9, 'solved_after_more_attempts'],
    ]);
    // A run started at level 10 asks for bandit10's password first: that logs in, it does not solve 10.
    expect(outcomes([paused(10, 'password_required'), answered('password'), started(10), solved(10)])).toEqual([
      [10, 'solved_alone'],
    ]);
  });

  it('charges an answer to the level that paused, not to the level after it', () => {
    const events = [started(7), solved(7), paused(7, 'llm_error'), answered('continue', 'hint'), started(8)];
    const levels = levelResults(recordOf(events));
    expect(levels.find((l) => l.level === 7)).toMatchObject({ hints: 1, pauses: 1, outcome: 'solved_with_hint' });
    expect(levels.find((l) => l.level === 8)).toMatchObject({ hints: 0, outcome: 'not_solved' });
  });

  it('sums a run: attempts, commands, tokens, cost, pauses by reason, wall time', () => {
    const events = [
      ev({ type: 'status_changed', from: 'queued', to: 'running' }),
      started(0),
      ev({ type: 'command', level: 0, commandId: 'a', command: 'ls' }),
      ev({
        type: 'llm_call',
        callId: 'c',
        model: 'm',
        stage: 'plan',
        level: 0,
        promptTokens: 10,
        completionTokens: 5,
        latencyMs: 1,
        costUsd: 0.25,
        errorClass: null,
      }),
      paused(0, 'loop_detected'),
      answered('continue'),
      started(0, 2),
      solved(0),
      ev({ type: 'run_complete', status: 'completed', levelsSolved: 1 }),
    ];
    const totals = runTotals(recordOf(events));
    expect(totals).toMatchObject({
      levelsSolved: 1,
      attempts: 2,
      commands: 1,
      promptTokens: 10,
      completionTokens: 5,
      costUsd: 0.25,
      pausesByReason: { loop_detected: 1 },
      wallTimeMs: 8000,
    });
    expect(totals.outcomes.solved_after_more_attempts).toBe(1);
  });

  it('folds event by event as it folds at once, and leaves untouched levels as they were', () => {
    fc.assert(
      fc.property(runLogArbitrary, fc.nat(), (log, cut) => {
        const at = cut % log.length;
        const before = recordOf(log.slice(0, at));
        const after = foldRecord(before, log[at]!);
        const event = log[at]!;
        // An answer is charged to the level that paused; every other event names its level.
        const touched = 'level' in event ? event.level : before.place.openPause;
        // The run's end also marks the levels it left unsolved with why it ended (their limit).
        const marked = (level: number) =>
          event.type === 'run_complete' && event.status !== 'completed' && !before.levels.get(level)?.solved;
        for (const [level, figures] of before.levels)
          if (level !== touched && !marked(level)) expect(after.levels.get(level)).toBe(figures);
        expect(recordOf(log.slice(at + 1), after)).toEqual(recordOf(log));
      }),
    );
  });

  it('generates logs that reach every outcome (so the property tests cover them all)', () => {
    const seen = new Set(
      fc.sample(runLogArbitrary, { numRuns: 300, seed: 1 }).flatMap((log) => outcomes(log).map(([, o]) => o)),
    );
    expect([...seen].sort()).toEqual([...LEVEL_OUTCOMES].sort());
  });
});
