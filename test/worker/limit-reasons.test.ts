// "How many runs hit the cost cap" is one query: runs and levels carry why they ended short, from the one
// list of limit reasons, and /api/analytics/limits and the board count them (fixture worked out by hand).
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyticsLimitsSchema } from '../../schema/analytics.ts';
import { boardSchema } from '../../schema/board.ts';
import { wilson95 } from '../../schema/board-stats.ts';
import { call } from './http.ts';

const T0 = Date.parse('2024-03-01T00:00:00Z');
const WINDOW = 'from=2024-03-01T00:00:00Z&to=2024-03-02T00:00:00Z';
const run = (id: string, model: string, status: string, limit: string | null, i: number) =>
  env.DB.prepare(
    `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, created_at, updated_at, limit_reason)
     VALUES (?, ?, 'practice', ?, 0, 5, 3, 15, 1, 1, ?, ?, ?)`,
  ).bind(id, status, model, T0 + i * 1000, T0 + i * 1000, limit);
const level = (id: string, model: string, n: number, limit: string | null, i: number) =>
  env.DB.prepare(
    `INSERT INTO run_levels (run_id, level, model, target, started_at, attempts, retries, pauses, solved, helped, outcome, commands, prompt_tokens, completion_tokens, cost_usd, limit_reason)
     VALUES (?, ?, ?, 'practice', ?, 1, 0, 0, ?, 0, ?, 1, 10, 5, 0.01, ?)`,
  ).bind(id, n, model, T0 + i * 1000, limit ? 0 : 1, limit ? 'not_solved' : 'solved_alone', limit);

// model-a: 3 runs ended at the cost cap, 1 at its retries, 1 completed; model-b: 2 stopped, 1 at the batch cap.
const FIXTURE: [string, string, string | null][] = [
  ['model-a', 'stopped', 'maxCostUsd'],
  ['model-a', 'stopped', 'maxCostUsd'],
  ['model-a', 'paused_for_user_action', null],
  ['model-a', 'stopped', 'maxCostUsd'],
  ['model-a', 'stopped', 'max_retries'],
  ['model-a', 'completed', null],
  ['model-b', 'stopped', 'stopped'],
  ['model-b', 'stopped', 'stopped'],
  ['model-b', 'stopped', 'batchMaxCostUsd'],
];

beforeAll(async () => {
  const statements = FIXTURE.flatMap(([model, status, limit], i) => {
    const id = `run_limits${String(i).padStart(2, '0')}aaaaaaaaaaaaaaaa`;
    // Level 0 solved in every run; level 1 left where the run ended short.
    return [run(id, model, status, limit, i), level(id, model, 0, null, i), level(id, model, 1, limit, i)];
  });
  await env.DB.batch(statements);
});

describe('limit reasons in D1', () => {
  it('/api/analytics/limits counts runs and levels by why they ended short, most first', async () => {
    const all = analyticsLimitsSchema.parse(await (await call(`/api/analytics/limits?${WINDOW}`)).json());
    expect(all.runs.map((r) => [r.reason, r.count])).toEqual([
      ['maxCostUsd', 3],
      ['stopped', 2],
      ['batchMaxCostUsd', 1],
      ['max_retries', 1],
    ]);
    expect(all.levels.map((r) => [r.reason, r.count])).toEqual(all.runs.map((r) => [r.reason, r.count]));
    expect(all.runs[0]?.text).toBe("the run's cost cap");
    const a = analyticsLimitsSchema.parse(await (await call(`/api/analytics/limits?${WINDOW}&model=model-a`)).json());
    expect(a.runs.map((r) => [r.reason, r.count])).toEqual([
      ['maxCostUsd', 3],
      ['max_retries', 1],
    ]);
  });

  it("the board gives each model's runs by limit reason", async () => {
    const board = boardSchema.parse(await (await call(`/api/board?${WINDOW}`)).json());
    const limits = Object.fromEntries(board.models.map((m) => [m.model, m.limits]));
    expect(limits).toEqual({
      'model-a': { maxCostUsd: 3, max_retries: 1 },
      'model-b': { stopped: 2, batchMaxCostUsd: 1 },
    });
  });

  it('states each rate with its 95 % Wilson interval (issue 32), from the same counts', async () => {
    const board = boardSchema.parse(await (await call(`/api/board?${WINDOW}`)).json());
    const cell = (level: number) => board.cells.find((c) => c.model === 'model-a' && c.level === level)!;
    // model-a: 6 runs reach levels 0 and 1; level 0 is solved alone by all 6, level 1 by the 2 that did not end short.
    expect(cell(0).aloneRate).toEqual(wilson95(6, 6));
    expect(cell(1).aloneRate).toEqual(wilson95(2, 6));
    expect(cell(1).solvedRate).toMatchObject({ successes: 2, n: 6, interval: 'wilson-95' });
    // 2 of 6 by hand: centre (1/3 + z²/12)/(1 + z²/6) = 0.39839, half = z·√(1/27 + z²/144)/(1 + z²/6) = 0.30161.
    expect(cell(1).aloneRate!.low).toBeCloseTo(0.0968, 4);
    expect(cell(1).aloneRate!.high).toBeCloseTo(0.7, 3);
    const model = board.models.find((m) => m.model === 'model-a')!;
    expect(model.aloneRate).toEqual(wilson95(8, 12));
  });
});
