// The one comparison of two runs: figures per level from the one fold, and the first point where the
// runs part, on hand-made logs (identical, a different command, a different outcome, one run longer,
// a person's different hint, hostile text kept as data).
import { describe, expect, it } from 'vitest';
import { compareRuns, runComparisonSchema } from '../../schema/run-compare.ts';
import { levelResults, recordOf } from '../../schema/run-record.ts';
import { differenceSentence } from '../../schema/run-steps.ts';
import { A, B, log, run, threeLevels } from '../support/compare-logs.ts';
import { HOSTILE } from '../support/hostile-text.ts';

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

describe('differenceSentence', () => {
  it('states the point in words with both seqs, and says when there is none', () => {
    const a = threeLevels(A);
    const d = compareRuns(run(A, a.events), run(B, threeLevels(B, 'cat ./-- -').events)).firstDifference;
    expect(differenceSentence(d)).toBe(
      'The runs first differ at level 2, step 4: A ran `cat ./-` (seq 13); B ran `cat ./-- -` (seq 13).',
    );
    expect(differenceSentence(null)).toMatch(/^No difference/);
    const short = compareRuns(run(A, a.events), run(B, log(B).started(0).events)).firstDifference;
    expect(differenceSentence(short)).toBe(
      'The runs first differ at level 0, step 1: A ran `cat readme` (seq 2); B had no more steps.',
    );
  });

  it('keeps a command on one line, its line breaks shown', () => {
    const a = log(A).started(0).cmd(0, 'echo one\necho two\r\necho three');
    const d = compareRuns(run(A, a.events), run(B, log(B).started(0).events)).firstDifference;
    expect(differenceSentence(d)).toContain('ran `echo one ↵ echo two ↵ echo three`');
  });
});
