// POST /api/forecast against a seeded history whose every figure was worked out by hand below, and the
// forecast a batch is made with: stored in D1, given by GET /api/batches/:id and the board, set against
// what the batch's runs spent, and left out (the batch still made) when D1 fails the write.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { batchSchema, boardSchema } from '../../schema/board.ts';
import type { LevelForecast } from '../../schema/forecast.ts';
import { forecastSchema } from '../../schema/forecast.ts';
import { forecastRequestSchema } from '../../schema/forecast-request.ts';
import { nearestRank, nearestRankSql } from '../../schema/nearest-rank.ts';
import { forecastFrom } from '../../worker/analytics/forecast.ts';
import { call, postJson } from './http.ts';

const S = 1000;
const T0 = 1_000_000;

// id, model, target, status, the run's end (null: not ended), batch
type RunSeed = [string, string, string, string, number | null, string | null];
// run, level, solved, cost, the level's start, its proof (solved levels only)
type LevelSeed = [string, number, boolean, number, number, number | null];

const run = (n: number) => `run_forecast${String(n).padStart(18, '0')}`;
const RUNS: RunSeed[] = [
  // forecast-a: five runs solve level 0; level 1 is solved twice, left unsolved once by a stopped run,
  // and is in progress in a running one (not counted).
  [run(1), 'forecast-a', 'practice', 'completed', T0 + 900 * S, null],
  [run(2), 'forecast-a', 'practice', 'completed', T0 + 900 * S, null],
  [run(3), 'forecast-a', 'practice', 'stopped', T0 + 200 * S, null],
  [run(4), 'forecast-a', 'practice', 'failed', T0 + 900 * S, null],
  [run(5), 'forecast-a', 'practice', 'running', null, null],
  // The same model on another target: never counted for practice.
  [run(6), 'forecast-a', 'bandit', 'completed', T0 + 900 * S, null],
  // forecast-b: one run at level 0, two at level 2 (a run started at 2), none at level 1.
  [run(7), 'forecast-b', 'practice', 'completed', T0 + 900 * S, null],
  [run(8), 'forecast-b', 'practice', 'completed', T0 + 900 * S, null],
  [run(9), 'forecast-b', 'practice', 'stopped', T0 + 900 * S, null],
  // A verification run: the model "replay" is never forecast from.
  [run(10), 'replay', 'practice', 'completed', T0 + 900 * S, null],
  // forecast-c: one run, of a batch; the forecast that batch was made with leaves it out.
  [run(13), 'forecast-c', 'practice', 'completed', T0 + 900 * S, 'batch_forecastseed000000000000'],
  // baseline's history, for the batch below: two runs solved level 0 in 4 s and in 6 s.
  [run(11), 'baseline', 'practice', 'completed', T0 + 900 * S, null],
  [run(12), 'baseline', 'practice', 'completed', T0 + 900 * S, null],
];
const LEVELS: LevelSeed[] = [
  // forecast-a level 0: costs .05 .01 .03 .02 .04, times 30 10 50 20 40 s.
  [run(1), 0, true, 0.05, T0, T0 + 30 * S],
  [run(2), 0, true, 0.01, T0, T0 + 10 * S],
  [run(3), 0, true, 0.03, T0, T0 + 50 * S],
  [run(4), 0, true, 0.02, T0, T0 + 20 * S],
  [run(5), 0, true, 0.04, T0, T0 + 40 * S],
  // forecast-a level 1: .10 in 60 s, .30 in 120 s, and .20 left unsolved: from its start (T0+110 s) to
  // its run's end (T0+200 s), 90 s. Run 5's level 1 is still being played: left out.
  [run(1), 1, true, 0.1, T0 + 100 * S, T0 + 160 * S],
  [run(2), 1, true, 0.3, T0 + 100 * S, T0 + 220 * S],
  [run(3), 1, false, 0.2, T0 + 110 * S, null],
  [run(5), 1, false, 9.99, T0 + 100 * S, null],
  [run(6), 0, true, 7.77, T0, T0 + 999 * S],
  // forecast-b level 0: .50 in 20 s; level 2: .20 in 100 s and .40 (unsolved) in 300 s.
  [run(7), 0, true, 0.5, T0, T0 + 20 * S],
  [run(8), 2, true, 0.2, T0, T0 + 100 * S],
  [run(9), 2, false, 0.4, T0 + 600 * S, null],
  [run(10), 0, true, 5, T0, T0 + 5 * S],
  [run(13), 0, true, 0.25, T0, T0 + 25 * S],
  [run(11), 0, true, 0, T0, T0 + 4 * S],
  [run(12), 0, true, 0, T0, T0 + 6 * S],
];

beforeAll(async () => {
  const statements = RUNS.map(([id, model, target, status, ended, batch]) =>
    env.DB.prepare(
      `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, created_at, updated_at, started_at, ended_at, batch_id)
       VALUES (?, ?, ?, ?, 0, 2, 3, 15, 0, 0, ?, ?, ?, ?, ?)`,
    ).bind(id, status, target, model, T0, T0, T0, ended, batch),
  );
  for (const [id, level, solved, cost, started, proved] of LEVELS) {
    const [, model, target] = RUNS.find((r) => r[0] === id)!;
    statements.push(
      env.DB.prepare(
        `INSERT INTO run_levels (run_id, level, model, target, started_at, ended_at, attempts, retries, pauses, solved, helped, outcome, pause_reasons, commands, prompt_tokens, completion_tokens, cost_usd)
         VALUES (?, ?, ?, ?, ?, ?, 1, 0, 0, ?, 0, ?, '{}', 1, 0, 0, ?)`,
      ).bind(id, level, model, target, started, proved, solved ? 1 : 0, solved ? 'solved_alone' : 'not_solved', cost),
    );
  }
  await env.DB.batch(statements);
});

const forecast = async (body: unknown) => {
  const response = await postJson('/api/forecast', body);
  expect(response.status).toBe(200);
  return forecastSchema.parse(await response.json());
};
const none = (level: number): LevelForecast => ({ level, runs: 0, costUsd: null, wallSeconds: null });
/** Dollars compared to the cent's hundredth: sums of binary fractions are not exact. */
const close = (actual: { median: number; p90: number }, median: number, p90: number) => {
  expect(actual.median).toBeCloseTo(median, 6);
  expect(actual.p90).toBeCloseTo(p90, 6);
};

describe('POST /api/forecast', () => {
  it('gives the hand-worked medians and p90s per level, summed, times repeats', async () => {
    const f = await forecast({ models: ['forecast-a', 'forecast-b'], startLevel: 0, endLevel: 2, repeats: 3 });
    expect(f).toMatchObject({ target: 'practice', startLevel: 0, endLevel: 2, repeats: 3, levelsWithoutHistory: 2 });
    const [a, b] = f.models;
    // Nearest rank: the ceil(p·n)-th smallest. a, level 0, n = 5: median the 3rd (.03, 30 s), p90 the 5th
    // (.05, 50 s). Level 1, n = 3 (run 5 still plays it): median the 2nd (.20, 90 s), p90 the 3rd (.30, 120 s).
    expect(a!.model).toBe('forecast-a');
    expect(a!.levels).toEqual([
      { level: 0, runs: 5, costUsd: { median: 0.03, p90: 0.05 }, wallSeconds: { median: 30, p90: 50 } },
      { level: 1, runs: 3, costUsd: { median: 0.2, p90: 0.3 }, wallSeconds: { median: 90, p90: 120 } },
      none(2),
    ]);
    // One run: .03 + .20 = .23 (p90 .05 + .30 = .35); 30 + 90 = 120 s (p90 50 + 120 = 170 s). × 3.
    close(a!.perRun.costUsd, 0.23, 0.35);
    expect(a!.perRun.wallSeconds).toEqual({ median: 120, p90: 170 });
    close(a!.total.costUsd, 0.69, 1.05);
    expect(a!.total.wallSeconds).toEqual({ median: 360, p90: 510 });
    expect(a!.levelsWithoutHistory).toBe(1);
    // b, level 0, n = 1: .50 and 20 s both. Level 2, n = 2: median the 1st (.20, 100 s), p90 the 2nd
    // (.40, 300 s: from the level's start at T0+600 s to its run's end at T0+900 s).
    expect(b!.levels).toEqual([
      { level: 0, runs: 1, costUsd: { median: 0.5, p90: 0.5 }, wallSeconds: { median: 20, p90: 20 } },
      none(1),
      { level: 2, runs: 2, costUsd: { median: 0.2, p90: 0.4 }, wallSeconds: { median: 100, p90: 300 } },
    ]);
    // One run: .70 (p90 .90), 120 s (p90 320 s); × 3: 2.10 (2.70), 360 s (960 s).
    close(b!.perRun.costUsd, 0.7, 0.9);
    close(b!.total.costUsd, 2.1, 2.7);
    expect(b!.total.wallSeconds).toEqual({ median: 360, p90: 960 });
    // The batch: .69 + 2.10 = 2.79 (p90 1.05 + 2.70 = 3.75); 720 run-seconds (p90 510 + 960 = 1470).
    close(f.total.costUsd, 2.79, 3.75);
    expect(f.total.wallSeconds).toEqual({ median: 720, p90: 1470 });
  });

  it('says "no history" for a model, a target or levels never played, and never forecasts from replays', async () => {
    const f = await forecast({ models: ['never-played', 'replay'], startLevel: 0, endLevel: 1 });
    for (const m of f.models) {
      expect(m.levels).toEqual([none(0), none(1)]);
      expect(m.perRun.costUsd).toEqual({ median: 0, p90: 0 });
    }
    expect(f.repeats).toBe(1);
    expect(f.levelsWithoutHistory).toBe(4);
    // forecast-a's bandit run is the only bandit history: 7.77 and 999 s, n = 1.
    const bandit = await forecast({ models: ['forecast-a'], target: 'bandit', startLevel: 0, endLevel: 0 });
    expect(bandit.models[0]!.levels).toEqual([
      { level: 0, runs: 1, costUsd: { median: 7.77, p90: 7.77 }, wallSeconds: { median: 999, p90: 999 } },
    ]);
  });

  it("leaves a batch's own runs out of the forecast it is made with", async () => {
    const request = forecastRequestSchema.parse({ models: ['forecast-c'], startLevel: 0, endLevel: 0 });
    const withIt = await forecastFrom(env.DB, request);
    expect(withIt.models[0]!.levels).toEqual([
      { level: 0, runs: 1, costUsd: { median: 0.25, p90: 0.25 }, wallSeconds: { median: 25, p90: 25 } },
    ]);
    const without = await forecastFrom(env.DB, request, 'batch_forecastseed000000000000');
    expect(without.models[0]!.levels).toEqual([none(0)]);
  });

  it('picks in SQL the same nearest rank as schema/nearest-rank.ts', async () => {
    const counts = Array.from({ length: 60 }, (_, i) => i + 1);
    for (const percent of [50, 90, 95, 99]) {
      const answers = await env.DB.batch<{ r: number }>(
        counts.map((n) => env.DB.prepare(`SELECT ${nearestRankSql(percent, 'CAST(? AS INTEGER)')} AS r`).bind(n)),
      );
      expect(answers.map((a) => a.results[0]!.r)).toEqual(counts.map((n) => nearestRank(percent, n)));
    }
    // By hand: the median of 5 is the 3rd, of 4 the 2nd; the p90 of 10 is the 9th, of 11 the 10th.
    expect([nearestRank(50, 5), nearestRank(50, 4), nearestRank(90, 10), nearestRank(90, 11)]).toEqual([3, 2, 9, 10]);
  });

  it('refuses bad bodies with 400, naming the field', async () => {
    const bad: [unknown, string][] = [
      [{ models: [] }, 'models'],
      [{ models: ['a'], startLevel: 3, endLevel: 1 }, 'endLevel'],
      [{ models: ['a'], repeats: 0 }, 'repeats'],
      [{ models: ['a', 'a'] }, 'models'],
      [{ models: Array.from({ length: 21 }, (_, i) => `m${i}`) }, 'models'],
      [{ models: ['a'], target: 'moon' }, 'target'],
      [{ models: ['a'], practice: true }, 'practice'],
      ['{not json', ''],
    ];
    for (const [body, field] of bad) {
      const response = await postJson('/api/forecast', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.message).toContain(field);
    }
    expect((await call('/api/forecast')).status).toBe(405);
  });
});

describe('a batch and its forecast', () => {
  it('is made with the forecast from the runs before it, and sets it against what its runs spent', async () => {
    const request = { models: ['baseline'], startLevel: 0, endLevel: 1 };
    const before = await forecast(request);
    // Level 0, n = 2: median the 1st (4 s), p90 the 2nd (6 s); level 1 has no history.
    expect(before.models[0]!.levels).toEqual([
      { level: 0, runs: 2, costUsd: { median: 0, p90: 0 }, wallSeconds: { median: 4, p90: 6 } },
      none(1),
    ]);
    const response = await postJson('/api/batches', { ...request, maxRetries: 1, budget: 4, finalAttempt: false });
    expect(response.status).toBe(201);
    const made = batchSchema.parse(await response.json());
    expect(made.forecast?.forecast).toEqual(before);

    let batch = made;
    await vi.waitFor(
      async () => {
        batch = batchSchema.parse(await (await call(`/api/batches/${made.id}`)).json());
        expect(batch.progress.done).toBe(1);
      },
      { timeout: 60_000, interval: 100 },
    );
    // Stored as it was made: the batch's own run, now history, is not in it.
    expect(batch.forecast).toEqual(made.forecast);
    const [ran] = batch.runs;
    const wall = (Date.parse(ran!.endedAt!) - Date.parse(ran!.startedAt!)) / 1000;
    expect(batch.actual).toEqual([{ model: 'baseline', runs: 1, done: 1, costUsd: 0, wallSeconds: wall }]);
    const board = boardSchema.parse(await (await call(`/api/board?batch=${made.id}`)).json());
    expect(board.forecast).toEqual(made.forecast);
    expect(board.actual).toEqual(batch.actual);
    // The next forecast rests on it too: three runs at level 0, and level 1 (where it stopped) now has one.
    await vi.waitFor(async () => {
      const after = await forecast(request);
      expect(after.models[0]!.levels.map((l) => l.runs)).toEqual([3, 1]);
    });
  });

  it('is still made when D1 cannot store its forecast, and says it has none', async () => {
    await env.DB.exec('DROP TABLE batch_forecasts');
    try {
      const response = await postJson('/api/batches', { models: ['baseline'], startLevel: 0, endLevel: 0 });
      expect(response.status).toBe(201);
      const made = batchSchema.parse(await response.json());
      expect(made.runs).toHaveLength(1);
      expect(made.forecast).toBeNull();
      const read = batchSchema.parse(await (await call(`/api/batches/${made.id}`)).json());
      expect(read.forecast).toBeNull();
      expect(read.actual?.[0]).toMatchObject({ model: 'baseline', runs: 1 });
    } finally {
      await env.DB.exec(
        'CREATE TABLE batch_forecasts (batch_id text PRIMARY KEY NOT NULL, created_at integer NOT NULL, forecast text NOT NULL)',
      );
    }
  });
});
