// GET /api/board against a fixture whose every figure was worked out by hand: the cells (solved
// alone, after help, not solved), each model's totals, the spread across its runs, the medians per solved
// level, and a run on another level set that stays in its own row.
import type { LevelOutcome, OutcomeCounts } from '../../schema/level-outcome.ts';
import { isHelped, noOutcomes } from '../../schema/level-outcome.ts';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { passAtList, wilson95 } from '../../schema/board-stats.ts';
import { boardSchema } from '../../schema/board.ts';
import { mediansOf } from '../../worker/analytics/board-medians.ts';
import { call } from './http.ts';

const BATCH = 'batch_fixture00000000000000000';

const SET = 'practice@2026.11.1';
const OLD_SET = 'practice@2026.10.0';
// id, model, levels solved, cost, prompt, completion, started, ended, level set
const RUNS: [string, string, number, number, number, number, number, number, string][] = [
  ['run_fixture0000000000000000001', 'fixture-a', 3, 0.3, 1000, 100, 1_000, 61_000, SET],
  ['run_fixture0000000000000000002', 'fixture-a', 1, 0.1, 500, 50, 2_000, 32_000, SET],
  ['run_fixture0000000000000000003', 'fixture-b', 2, 0, 0, 0, 3_000, 13_000, SET],
  // The same model on an older catalogue: its own row, never averaged with the runs above.
  ['run_fixture0000000000000000004', 'fixture-a', 1, 0.5, 10, 1, 4_000, 104_000, OLD_SET],
];
// run, level, how it ended (schema/level-outcome.ts), commands, ms from the level's start to its proof, cost
const LEVELS: [number, number, LevelOutcome, number, number, number][] = [
  [0, 0, 'solved_alone', 2, 10_000, 0.01],
  [0, 1, 'solved_alone', 3, 20_000, 0.02],
  [0, 2, 'solved_with_password', 4, 40_000, 0.04],
  [0, 3, 'not_solved', 5, 0, 0.2],
  [1, 0, 'solved_alone', 1, 30_000, 0.03],
  [1, 1, 'not_solved', 6, 0, 0.07],
  [2, 0, 'solved_alone', 2, 5_000, 0],
  // A bare continue: neither alone nor helped (the board counted it alone before the one taxonomy).
  [2, 1, 'solved_after_more_attempts', 2, 7_000, 0],
  [3, 0, 'solved_alone', 9, 99_000, 0.5],
];

beforeAll(async () => {
  const statements = RUNS.map(([id, model, solved, cost, prompt, completion, started, ended, set]) =>
    env.DB.prepare(
      `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, prompt_tokens, completion_tokens, cost_usd, created_at, updated_at, started_at, ended_at, batch_id, level_set)
       VALUES (?, 'stopped', 'practice', ?, 0, 5, 3, 15, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(id, model, solved, prompt, completion, cost, started, ended, started, ended, BATCH, set),
  );
  for (const [run, level, outcome, commands, ms, cost] of LEVELS) {
    const [id, model, , , , , started, , set] = RUNS[run]!;
    const solved = outcome !== 'not_solved';
    statements.push(
      env.DB.prepare(
        `INSERT INTO run_levels (run_id, level, model, target, started_at, ended_at, attempts, retries, pauses, solved, helped, outcome, pause_reasons, commands, prompt_tokens, completion_tokens, cost_usd, level_set)
         VALUES (?, ?, ?, 'practice', ?, ?, 1, 0, 0, ?, ?, ?, '{}', ?, 0, 0, ?, ?)`,
      ).bind(
        id,
        level,
        model,
        started,
        solved ? started + ms : null,
        solved ? 1 : 0,
        isHelped(outcome) ? 1 : 0,
        outcome,
        commands,
        cost,
        set,
      ),
    );
  }
  // A fork of fixture-a's first run in the same batch: not a trial of its own, so on no row of the board.
  statements.push(
    env.DB.prepare(
      `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, prompt_tokens, completion_tokens, cost_usd, created_at, updated_at, started_at, ended_at, batch_id, level_set, parent_id, fork_seq)
       VALUES ('run_fixture0000000000000fork1', 'completed', 'practice', 'fixture-a', 0, 5, 3, 15, 4, 4, 9, 9, 9, 5000, 5000, 5000, 9000, ?, ?, ?, 12)`,
    ).bind(BATCH, SET, RUNS[0]![0]),
  );
  await env.DB.batch(statements);
});

describe('GET /api/board', () => {
  it('gives the hand-worked figures of the fixture', async () => {
    const response = await call(`/api/board?batch=${BATCH}`);
    expect(response.status).toBe(200);
    const board = boardSchema.parse(await response.json());
    expect(board.levels).toEqual([0, 1, 2, 3]);
    const o = (counts: Partial<OutcomeCounts>): OutcomeCounts => ({ ...noOutcomes(), ...counts });
    // Each cell's rates come from its counts (schema/board-stats.ts, tested against hand-worked intervals).
    for (const cell of board.cells) {
      expect(cell.aloneRate).toEqual(wilson95(cell.alone, cell.runs));
      expect(cell.solvedRate).toEqual(wilson95(cell.runs - cell.notSolved, cell.runs));
      expect(cell.passAt).toEqual(passAtList(cell.runs, cell.runs - cell.notSolved));
    }
    // fixture-a level 1: 2 runs, 1 solved: pass@1 is 1/2, and 2 runs allow no pass@3.
    expect(board.cells.find((c) => c.model === 'fixture-a' && c.level === 1)?.passAt).toEqual([{ k: 1, value: 0.5 }]);
    // Every row and cell says where it was measured; the older catalogue's run is a row and a cell of its own.
    for (const row of [...board.models, ...board.cells]) expect(row.target).toBe('practice');
    const old = board.cells.filter((c) => c.levelSet === OLD_SET);
    expect(old.map((c) => [c.model, c.level, c.runs, c.alone, c.medianSolveMs, c.medianSolveCostUsd])).toEqual([
      ['fixture-a', 0, 1, 1, 99_000, 0.5],
    ]);
    const cells = board.cells.filter((c) => c.levelSet === SET);
    // Medians per solved level (nearest rank): fixture-a level 0 took 10 s and 30 s ($0.01, $0.03): the first.
    expect(cells.map((c) => [c.model, c.level, c.medianSolveMs, c.medianSolveCostUsd])).toEqual([
      ['fixture-a', 0, 10_000, 0.01],
      ['fixture-a', 1, 20_000, 0.02],
      ['fixture-a', 2, 40_000, 0.04],
      ['fixture-a', 3, null, null],
      ['fixture-b', 0, 5_000, 0],
      ['fixture-b', 1, 7_000, 0],
    ]);
    expect(
      cells.map(
        ({
          aloneRate: _a,
          solvedRate: _s,
          passAt: _p,
          target: _t,
          levelSet: _l,
          world: _w,
          medianSolveMs: _m,
          medianSolveCostUsd: _c,
          ...counts
        }) => counts,
      ),
    ).toEqual([
      { model: 'fixture-a', level: 0, runs: 2, alone: 2, helped: 0, notSolved: 0, outcomes: o({ solved_alone: 2 }) },
      {
        model: 'fixture-a',
        level: 1,
        runs: 2,
        alone: 1,
        helped: 0,
        notSolved: 1,
        outcomes: o({ solved_alone: 1, not_solved: 1 }),
      },
      {
        model: 'fixture-a',
        level: 2,
        runs: 1,
        alone: 0,
        helped: 1,
        notSolved: 0,
        outcomes: o({ solved_with_password: 1 }),
      },
      { model: 'fixture-a', level: 3, runs: 1, alone: 0, helped: 0, notSolved: 1, outcomes: o({ not_solved: 1 }) },
      { model: 'fixture-b', level: 0, runs: 1, alone: 1, helped: 0, notSolved: 0, outcomes: o({ solved_alone: 1 }) },
      {
        model: 'fixture-b',
        level: 1,
        runs: 1,
        alone: 0,
        helped: 0,
        notSolved: 0,
        outcomes: o({ solved_after_more_attempts: 1 }),
      },
    ]);
    const [a, b, aOld] = board.models;
    // fixture-a solves 1.5 levels alone per run, fixture-b 1 and more per run than fixture-a on the old set.
    expect(aOld).toMatchObject({ model: 'fixture-a', levelSet: OLD_SET, runs: 1, levelsSolved: 1, costUsd: 0.5 });
    // fixture-a reached 6 levels over its two runs and solved 4 of them, 3 alone.
    expect(a!.aloneRate).toEqual(wilson95(3, 6));
    expect(a!.solvedRate).toEqual(wilson95(4, 6));
    expect(a).toMatchObject({
      model: 'fixture-a',
      levelSet: SET,
      // Its solved levels took 10, 20, 30 and 40 s ($0.01 … $0.04): the nearest-rank median is the second.
      medianSolveMs: 20_000,
      medianSolveCostUsd: 0.02,
      runs: 2,
      highestLevel: 3,
      levelsSolved: 4,
      levelsSolvedAlone: 3,
      commands: 21,
      tokens: { prompt: 1500, completion: 150 },
      wallTimeMs: 90_000,
    });
    expect(a!.costUsd).toBeCloseTo(0.4, 10);
    expect(a!.costPerLevelSolved).toBeCloseTo(0.1, 10);
    // Levels solved per run: 3 and 1 → mean 2, sd √2, stderr √2/√2 = 1.
    expect(a!.levelsSolvedPerRun.mean).toBe(2);
    expect(a!.levelsSolvedPerRun.sd).toBeCloseTo(Math.SQRT2, 10);
    expect(a!.levelsSolvedPerRun.stderr).toBeCloseTo(1, 10);
    expect([a!.levelsSolvedPerRun.min, a!.levelsSolvedPerRun.max]).toEqual([1, 3]);
    expect(a!.costPerRun.mean).toBeCloseTo(0.2, 10);
    expect(a!.costPerRun.sd).toBeCloseTo(Math.sqrt(0.02), 10);
    expect(b).toMatchObject({
      model: 'fixture-b',
      medianSolveMs: 5_000,
      medianSolveCostUsd: 0,
      runs: 1,
      highestLevel: 1,
      levelsSolved: 2,
      levelsSolvedAlone: 1,
      commands: 4,
      costUsd: 0,
      costPerLevelSolved: 0,
      wallTimeMs: 10_000,
    });
    expect(b!.levelsSolvedPerRun).toEqual({ mean: 2, sd: 0, stderr: 0, min: 2, max: 2 });
  });

  it('reads the same medians for the whole board (offsets along the index) as for a batch (ranked in SQL)', async () => {
    const parse = async (path: string) => boardSchema.parse(await (await call(path)).json());
    const [whole, batch] = await Promise.all([parse('/api/board'), parse(`/api/board?batch=${BATCH}`)]);
    const mine = (b: typeof whole) => ({
      cells: b.cells
        .filter((c) => c.model.startsWith('fixture-'))
        .map((c) => [c.model, c.levelSet, c.level, c.medianSolveMs, c.medianSolveCostUsd]),
      rows: b.models
        .filter((m) => m.model.startsWith('fixture-'))
        .map((m) => [m.model, m.levelSet, m.medianSolveMs, m.medianSolveCostUsd]),
    });
    expect(mine(whole)).toEqual(mine(batch));
    expect(mine(whole).rows).toContainEqual(['fixture-a', SET, 20_000, 0.02]);
  });

  it('ranks a whole board in SQL, to the same medians, once its groups need more offset reads than a batch holds', async () => {
    // The fixture's rows name no world (written as before worlds were recorded).
    const groups = [
      { model: 'fixture-a', level_set: SET, world: null, level: 0, solved: 2 },
      { model: 'fixture-a', level_set: SET, world: null, solved: 4 },
      { model: 'fixture-b', level_set: SET, world: null, level: 1, solved: 1 },
    ];
    const expected = [
      { medianSolveMs: 10_000, medianSolveCostUsd: 0.01 },
      { medianSolveMs: 20_000, medianSolveCostUsd: 0.02 },
      { medianSolveMs: 7_000, medianSolveCostUsd: 0 },
    ];
    const whole = { where: '', params: [] };
    expect(await mediansOf(env.DB, whole, groups)).toEqual(expected);
    expect(await mediansOf(env.DB, whole, groups, 0)).toEqual(expected);
  });

  it('filters: another target has none of these runs, and a bad query is a 400 naming the field', async () => {
    const other = boardSchema.parse(await (await call(`/api/board?batch=${BATCH}&target=bandit`)).json());
    expect(other).toEqual({ models: [], cells: [], levels: [] });
    const bad = await call('/api/board?batch=nope');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/batch/);
  });
});
