// The one comparison of two runs: figures per level from the one fold, and the first point where the
// runs part, on hand-made logs (identical, a different command, a different outcome, one run longer,
// a person's different hint, hostile text kept as data).
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { compareRuns, runComparisonSchema } from '../../schema/run-compare.ts';
import type { ComparedRun } from '../../schema/run-compare.ts';
import { levelResults, recordOf } from '../../schema/run-record.ts';
import { runSummarySchema } from '../../schema/run.ts';
import { HOSTILE } from '../support/hostile-text.ts';

const A = 'run_0aaaaaaaaaaaaaaaaaaaaaaaaa';
const B = 'run_0bbbbbbbbbbbbbbbbbbbbbbbbb';

/** A log builder: each call numbers its event in the log it builds. */
function log(runId: string) {
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

function run(id: string, events: RunEvent[], model = 'baseline'): ComparedRun {
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
function threeLevels(runId: string, third = 'cat ./-') {
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

describe('compareRuns', () => {
  it('finds no difference between identical logs, and every level the same', () => {
    const c = compareRuns(run(A, threeLevels(A).events), run(B, threeLevels(B).events));
    expect(c.firstDifference).toBeNull();
    expect(c.levels.map((l) => [l.level, l.same])).toEqual([
      [0, true],
      [1, true],
      [2, true],
    ]);
    expect(runComparisonSchema.parse(c)).toEqual(c);
  });

  it('compares a run with itself as identical', () => {
    const one = run(A, threeLevels(A).events);
    expect(compareRuns(one, one).firstDifference).toBeNull();
  });

  it('finds a different command at level 2, index 3, with both seqs, and only that level differs', () => {
    const a = threeLevels(A);
    const b = threeLevels(B, "cat 'spaces in this filename'");
    const c = compareRuns(run(A, a.events), run(B, b.events));
    const at = a.events.find((e) => e.type === 'command' && e.command === 'cat ./-' && e.level === 2)!.seq;
    expect(c.firstDifference).toEqual({
      level: 2,
      index: 3,
      a: { seq: at, level: 2, kind: 'command', text: 'cat ./-' },
      b: { seq: at, level: 2, kind: 'command', text: "cat 'spaces in this filename'" },
    });
    expect(c.levels.map((l) => l.same)).toEqual([true, true, false]);
    // The level's links point at its level_started in each run.
    const startedAt2 = a.events.find((e) => e.type === 'level_started' && e.level === 2)!.seq;
    expect(c.levels[2]!.firstSeq).toEqual({ a: startedAt2, b: startedAt2 });
  });

  it('takes the figures from the one fold: outcomes, attempts, commands, tokens, cost and time', () => {
    const a = threeLevels(A);
    const c = compareRuns(run(A, a.events), run(B, threeLevels(B).events));
    const folded = levelResults(recordOf(a.events));
    expect(c.levels.map((l) => l.a)).toEqual(folded);
    expect(c.levels[1]!.a).toMatchObject({ outcome: 'solved_alone', attempts: 1, commands: 2, promptTokens: 100 });
    expect(c.levels[1]!.a!.costUsd).toBeCloseTo(0.01);
    expect(c.levels[2]!.a!.durationMs).toBe(1002);
    expect(c.totals.a).toMatchObject({ levelsSolved: 3, commands: 7, promptTokens: 100 });
  });

  it('tells different outcomes apart: one proves the level, the other pauses and is stopped', () => {
    const a = log(A).started(0).cmd(0, 'cat readme').solved(0).end('completed', 1);
    const b = log(B).started(0).cmd(0, 'cat readme').failed(0).paused(0).stopped().end('stopped', 0);
    const c = compareRuns(run(A, a.events), run(B, b.events));
    expect(c.firstDifference).toMatchObject({
      level: 0,
      index: 1,
      a: { kind: 'outcome', text: 'solved (agent)' },
      b: { kind: 'attempt_failed', text: 'attempt 1 failed: budget_spent' },
    });
    expect(c.levels[0]).toMatchObject({ same: false, a: { outcome: 'solved_alone' }, b: { outcome: 'not_solved' } });
    expect(c.totals.b.limit).toBe('max_retries');
  });

  it('says where the longer run goes on, and shows the level the shorter never reached as null', () => {
    const a = threeLevels(A);
    const b = log(B).started(0).cmd(0, 'cat readme').solved(0);
    const c = compareRuns(run(A, a.events), run(B, b.events));
    expect(c.firstDifference).toMatchObject({ level: 1, index: 0, a: { kind: 'command', text: 'ls -la' }, b: null });
    expect(c.levels.map((l) => [l.level, l.a?.outcome ?? null, l.b?.outcome ?? null, l.same])).toEqual([
      [0, 'solved_alone', 'solved_alone', true],
      [1, 'solved_alone', null, false],
      [2, 'solved_alone', null, false],
    ]);
    expect(c.levels[1]!.firstSeq.b).toBeNull();
    // Either way round.
    expect(compareRuns(run(B, b.events), run(A, a.events)).firstDifference).toMatchObject({ a: null, b: {} });
  });

  it('parts two forks of one pause at the hints, with the shared steps before it equal', () => {
    const base = (id: string) => log(id).started(0).cmd(0, 'ls').failed(0).paused(0);
    const a = base(A).answered('look in inhere').started(0, 2).cmd(0, 'ls inhere');
    const b = base(B).answered('the file is hidden').started(0, 2).cmd(0, 'ls -a');
    const c = compareRuns(run(A, a.events), run(B, b.events));
    expect(c.firstDifference).toEqual({
      level: 0,
      index: 3,
      a: { seq: 5, level: 0, kind: 'person', text: 'hint: look in inhere' },
      b: { seq: 5, level: 0, kind: 'person', text: 'hint: the file is hidden' },
    });
  });

  it('ignores what is not a step: model text, outputs, spend', () => {
    const a = log(A).started(0).call(0, 10, 0.001).cmd(0, 'cat readme').solved(0);
    const b = log(B).started(0).call(0, 999, 0.5).cmd(0, 'cat readme').solved(0);
    const c = compareRuns(run(A, a.events, 'quick/mini'), run(B, b.events, 'ponder/deep'));
    expect(c.firstDifference).toBeNull();
    expect(c.levels[0]).toMatchObject({ same: true, a: { promptTokens: 10 }, b: { promptTokens: 999 } });
    expect([c.a.model, c.b.model]).toEqual(['quick/mini', 'ponder/deep']);
  });

  it('keeps hostile text as data, whole where short and cut where long', () => {
    for (const { kind, text } of HOSTILE) {
      const a = log(A).started(0).cmd(0, 'ls');
      const b = log(B).started(0).cmd(0, text);
      const d = compareRuns(run(A, a.events), run(B, b.events)).firstDifference;
      expect(d?.b?.kind, kind).toBe('command');
      if (text.length <= 500) expect(d?.b?.text, kind).toBe(text);
      else expect(d?.b?.text, kind).toBe(`${text.slice(0, 500)}…`);
    }
  });
});
