// The analytics queries against a small fixture data set whose answers are worked out by hand, and
// the run_levels roll-up the mirror keeps for a real run.
import { noOutcomes } from '../../schema/level-outcome.ts';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  analyticsFailuresSchema,
  analyticsLevelsSchema,
  analyticsModelsSchema,
  analyticsSeriesSchema,
  analyticsSlowSchema,
  analyticsSummarySchema,
} from '../../schema/analytics.ts';
import { FAILURE_CLASSES } from '../../schema/failures.ts';
import { call, createRun, waitForStatus } from './http.ts';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const HOUR = 3_600_000;
const run = (id: string, model: string, status: string, createdAt: number) =>
  env.DB.prepare(
    `INSERT INTO runs (id, status, target, model, start_level, end_level, max_retries, budget, current_level, levels_solved, created_at, updated_at)
     VALUES (?, ?, 'practice', ?, 0, 5, 3, 15, 0, 0, ?, ?)`,
  ).bind(id, status, model, createdAt, createdAt);
type Level = {
  level: number;
  solved: boolean;
  helped: boolean;
  attempts: number;
  retries: number;
  pauses: number;
  commands: number;
  prompt: number;
  completion: number;
  cost: number;
  ms: number;
  reasons?: Record<string, number>;
};
const level = (runId: string, model: string, startedAt: number, l: Level) =>
  env.DB.prepare(
    `INSERT INTO run_levels (run_id, level, model, target, started_at, ended_at, attempts, retries, pauses, pause_reasons, solved, helped, outcome, commands, prompt_tokens, completion_tokens, cost_usd)
     VALUES (?, ?, ?, 'practice', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).bind(
    runId,
    l.level,
    model,
    startedAt,
    l.solved ? startedAt + l.ms : null,
    l.attempts,
    l.retries,
    l.pauses,
    JSON.stringify(l.reasons ?? {}),
    l.solved ? 1 : 0,
    l.helped ? 1 : 0,
    // The fixture's helped levels had a hint.
    l.solved ? (l.helped ? 'solved_with_hint' : 'solved_alone') : 'not_solved',
    l.commands,
    l.prompt,
    l.completion,
    l.cost,
  );
const llmCall = (runId: string, seq: number, model: string, latencyMs: number, errorClass: string | null, at: number) =>
  env.DB.prepare(
    `INSERT INTO llm_calls (id, run_id, seq, level, model, stage, prompt_tokens, completion_tokens, latency_ms, cost_usd, error_class, created_at)
     VALUES (?, ?, ?, 0, ?, 'plan', 1, 1, ?, 0, ?, ?)`,
  ).bind(`${runId}:${seq}`, runId, seq, model, latencyMs, errorClass, at);

const execution = (runId: string, seq: number, node: string, startedAt: number, durationMs: number) =>
  env.DB.prepare(
    `INSERT INTO executions (run_id, seq, node, level, started_at, duration_ms, status, error) VALUES (?, ?, ?, 0, ?, ?, 'ok', NULL)`,
  ).bind(runId, seq, node, startedAt, durationMs);

const A = 'fixture-a';
const B = 'fixture-b';
const R1 = 'run_fixture0000000000000001';
const R2 = 'run_fixture0000000000000002';
const R3 = 'run_fixture0000000000000003';
beforeAll(async () => {
  await env.DB.batch([
    run(R1, A, 'completed', T0),
    run(R2, A, 'paused_for_user_action', T0 + HOUR),
    run(R3, B, 'failed', T0 + 24 * HOUR),
    level(R1, A, T0, {
      level: 0,
      solved: true,
      helped: false,
      attempts: 1,
      retries: 0,
      pauses: 0,
      commands: 2,
      prompt: 100,
      completion: 20,
      cost: 0.01,
      ms: 2_000,
    }),
    level(R1, A, T0 + 10, {
      level: 1,
      solved: true,
      helped: true,
      attempts: 3,
      retries: 2,
      pauses: 1,
      commands: 10,
      prompt: 300,
      completion: 60,
      cost: 0.03,
      ms: 10_000,
      reasons: { max_retries: 1 },
    }),
    level(R2, A, T0 + HOUR, {
      level: 0,
      solved: true,
      helped: false,
      attempts: 1,
      retries: 0,
      pauses: 0,
      commands: 4,
      prompt: 200,
      completion: 40,
      cost: 0.02,
      ms: 4_000,
    }),
    level(R2, A, T0 + HOUR + 10, {
      level: 1,
      solved: false,
      helped: false,
      attempts: 2,
      retries: 2,
      pauses: 1,
      commands: 8,
      prompt: 100,
      completion: 10,
      cost: 0.01,
      ms: 0,
      reasons: { llm_error: 1 },
    }),
    level(R3, B, T0 + 24 * HOUR, {
      level: 0,
      solved: false,
      helped: false,
      attempts: 1,
      retries: 1,
      pauses: 0,
      commands: 15,
      prompt: 50,
      completion: 5,
      cost: 0.005,
      ms: 0,
    }),
    ...[10, 20, 30, 40, 100].map((latency, i) =>
      llmCall(i < 3 ? R1 : R2, i + 1, A, latency, i === 4 ? 'timeout' : null, T0 + i),
    ),
    llmCall(R3, 1, B, 7, null, T0 + 24 * HOUR),
    env.DB.prepare(
      `INSERT INTO executions (run_id, seq, node, level, started_at, duration_ms, status, error) VALUES (?, 9, 'validate', 0, ?, 3, 'error', 'node "validate" failed: boom')`,
    ).bind(R3, T0 + 24 * HOUR + 5),
    // Two slow plan nodes: R1's made calls 1-3 (60 ms of model time), R2's calls 4-5 (140 ms).
    execution(R1, 4, 'plan', T0 + 100, 6_000),
    execution(R1, 6, 'execute', T0 + 6_200, 100),
    execution(R2, 8, 'plan', T0 + HOUR + 5, 7_000),
  ]);
});

const get = async (path: string) => {
  const response = await call(path);
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('analytics over a hand-worked fixture', () => {
  it('summarises one model: runs by status, levels, help, tokens, cost, errors and latency percentiles', async () => {
    const summary = analyticsSummarySchema.parse((await get(`/api/analytics/summary?model=${A}`)).body);
    expect(summary.runs).toEqual({ total: 2, byStatus: { completed: 1, paused_for_user_action: 1 } });
    expect(summary.levels).toEqual({
      attempted: 4,
      solved: 3,
      solveRate: 0.75,
      solvedWithHelp: 1,
      outcomes: { ...noOutcomes(), solved_alone: 2, solved_with_hint: 1, not_solved: 1 },
    });
    expect(summary.tokens).toEqual({ prompt: 700, completion: 130 });
    expect(summary.costUsd).toBeCloseTo(0.07, 10);
    // Latencies 10, 20, 30, 40, 100 ms, one failed: nearest-rank p50 is the 3rd, p95 and p99 the 5th.
    expect(summary.modelCalls).toEqual({
      count: 5,
      errors: 1,
      errorRate: 0.2,
      latencyMs: { p50: 30, p95: 100, p99: 100 },
    });
  });

  it('filters by time window and level', async () => {
    const later = analyticsSummarySchema.parse(
      (await get(`/api/analytics/summary?model=${A}&from=2025-01-01T00:30:00Z&to=2025-01-02T00:00:00Z`)).body,
    );
    expect(later.runs).toEqual({ total: 1, byStatus: { paused_for_user_action: 1 } });
    expect(later.levels).toMatchObject({ attempted: 2, solved: 1, solveRate: 0.5, solvedWithHelp: 0 });
    const levelOne = analyticsSummarySchema.parse((await get(`/api/analytics/summary?model=${A}&level=1`)).body);
    expect(levelOne.levels).toMatchObject({ attempted: 2, solved: 1, solveRate: 0.5, solvedWithHelp: 1 });
    expect(levelOne.levels.outcomes).toEqual({ ...noOutcomes(), solved_with_hint: 1, not_solved: 1 });
    expect(levelOne.tokens).toEqual({ prompt: 400, completion: 70 });
  });

  it('gives the models × levels matrix with solves alone and helped, and medians to solve', async () => {
    const { cells } = analyticsLevelsSchema.parse(
      (await get('/api/analytics/levels?from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z')).body,
    );
    // Every cell's outcomes add up to its runs; the solves alone and helped are its parts.
    for (const c of cells) {
      expect(Object.values(c.outcomes).reduce((a, b) => a + b, 0)).toBe(c.runs);
      expect([c.outcomes.solved_alone, c.outcomes.solved_with_hint]).toEqual([c.solvedAlone, c.solvedWithHelp]);
    }
    expect(cells.map((c) => ({ ...c, outcomes: undefined, costUsd: Math.round(c.costUsd * 1000) / 1000 }))).toEqual([
      {
        model: A,
        level: 0,
        runs: 2,
        solved: 2,
        solveRate: 1,
        solvedAlone: 2,
        solvedWithHelp: 0,
        attempts: 2,
        retries: 0,
        pauses: 0,
        pausesByReason: {},
        medianCommandsToSolve: 3,
        medianTimeToSolveMs: 3_000,
        tokens: 360,
        costUsd: 0.03,
      },
      {
        model: A,
        level: 1,
        runs: 2,
        solved: 1,
        solveRate: 0.5,
        solvedAlone: 0,
        solvedWithHelp: 1,
        attempts: 5,
        retries: 4,
        pauses: 2,
        pausesByReason: { max_retries: 1, llm_error: 1 },
        medianCommandsToSolve: 10,
        medianTimeToSolveMs: 10_000,
        tokens: 470,
        costUsd: 0.04,
      },
      {
        model: B,
        level: 0,
        runs: 1,
        solved: 0,
        solveRate: 0,
        solvedAlone: 0,
        solvedWithHelp: 0,
        attempts: 1,
        retries: 1,
        pauses: 0,
        pausesByReason: {},
        medianCommandsToSolve: null,
        medianTimeToSolveMs: null,
        tokens: 55,
        costUsd: 0.005,
      },
    ]);
  });

  it('gives one row per model with solves alone and helped, tokens, cost, errors and latency percentiles', async () => {
    const { models } = analyticsModelsSchema.parse(
      (await get('/api/analytics/models?from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z')).body,
    );
    expect(models.map((m) => ({ ...m, costUsd: Math.round(m.costUsd * 1000) / 1000 }))).toEqual([
      {
        model: A,
        runs: 2,
        levelsAttempted: 4,
        levelsSolved: 3,
        solveRate: 0.75,
        solvedAlone: 2,
        solvedWithHelp: 1,
        retries: 4,
        pauses: 2,
        tokens: { prompt: 700, completion: 130 },
        costUsd: 0.07,
        modelCalls: { count: 5, errors: 1, errorRate: 0.2, latencyMs: { p50: 30, p95: 100, p99: 100 } },
      },
      {
        model: B,
        runs: 1,
        levelsAttempted: 1,
        levelsSolved: 0,
        solveRate: 0,
        solvedAlone: 0,
        solvedWithHelp: 0,
        retries: 1,
        pauses: 0,
        tokens: { prompt: 50, completion: 5 },
        costUsd: 0.005,
        modelCalls: { count: 1, errors: 0, errorRate: 0, latencyMs: { p50: 7, p95: 7, p99: 7 } },
      },
    ]);
  });

  it('lists failures newest first with their fix and a link, pages them, and groups them by class', async () => {
    const window = 'from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z';
    const first = analyticsFailuresSchema.parse((await get(`/api/analytics/failures?${window}&limit=1`)).body);
    expect(first.failures).toEqual([
      {
        kind: 'node',
        runId: R3,
        seq: 9,
        level: 0,
        model: B,
        stage: 'validate',
        errorClass: 'node_error',
        message: 'node "validate" failed: boom',
        fix: FAILURE_CLASSES.run_failed.fix,
        at: new Date(T0 + 24 * HOUR + 5).toISOString(),
        link: `/run?id=${R3}#seq-9`,
      },
    ]);
    const second = analyticsFailuresSchema.parse(
      (await get(`/api/analytics/failures?${window}&limit=1&cursor=${first.nextCursor}`)).body,
    );
    expect(second.failures).toEqual([
      expect.objectContaining({
        kind: 'model_call',
        runId: R2,
        seq: 5,
        errorClass: 'timeout',
        fix: FAILURE_CLASSES.model_timeout.fix,
      }),
    ]);
    expect(second.nextCursor).toBeNull();
    expect(first.byClass).toEqual([
      { errorClass: 'node_error', count: 1, fix: FAILURE_CLASSES.run_failed.fix },
      { errorClass: 'timeout', count: 1, fix: FAILURE_CLASSES.model_timeout.fix },
    ]);
    const onlyA = analyticsFailuresSchema.parse((await get(`/api/analytics/failures?${window}&model=${A}`)).body);
    expect(onlyA.failures.map((f) => f.errorClass)).toEqual(['timeout']);
  });

  it("lists slow executions with the model's share and the overhead", async () => {
    const { executions } = analyticsSlowSchema.parse(
      (await get('/api/analytics/slow?from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z&overMs=5000')).body,
    );
    expect(executions.map((e) => [e.runId, e.seq, e.node, e.durationMs, e.modelMs, e.overheadMs, e.link])).toEqual([
      [R2, 8, 'plan', 7_000, 140, 6_860, `/run?id=${R2}#seq-8`],
      [R1, 4, 'plan', 6_000, 60, 5_940, `/run?id=${R1}#seq-4`],
    ]);
  });

  it('gives a daily series of runs by status, calls, errors, tokens, cost and latency', async () => {
    const series = analyticsSeriesSchema.parse(
      (await get('/api/analytics/series?from=2025-01-01T00:00:00Z&to=2025-01-03T00:00:00Z&bucket=day')).body,
    );
    expect(series.points).toEqual([
      {
        t: '2025-01-01T00:00:00.000Z',
        runs: 2,
        byStatus: { completed: 1, paused_for_user_action: 1 },
        modelCalls: 5,
        errors: 1,
        tokens: 10,
        costUsd: 0,
        avgLatencyMs: 40,
      },
      {
        t: '2025-01-02T00:00:00.000Z',
        runs: 1,
        byStatus: { failed: 1 },
        modelCalls: 1,
        errors: 0,
        tokens: 2,
        costUsd: 0,
        avgLatencyMs: 7,
      },
    ]);
    const hourly = analyticsSeriesSchema.parse(
      (await get(`/api/analytics/series?from=2025-01-01T00:00:00Z&to=2025-01-01T02:00:00Z&bucket=hour&model=${A}`))
        .body,
    );
    expect(hourly.points.map((p) => [p.t, p.runs])).toEqual([
      ['2025-01-01T00:00:00.000Z', 1],
      ['2025-01-01T01:00:00.000Z', 1],
    ]);
  });

  it('refuses a bad filter with the issues', async () => {
    const bad = await get('/api/analytics/levels?from=yesterday&level=-1&colour=red');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: {
        code: 'invalid_query',
        issues: expect.arrayContaining([expect.stringMatching(/^from: /), expect.stringMatching(/^level: /)]),
      },
    });
  });
});

describe('the llm_hourly roll-up', () => {
  it('counts a model call once however often the mirror sends it, with its target from the run', async () => {
    const at = T0 + 48 * HOUR + 1_234;
    const send = () =>
      env.DB.prepare(
        `INSERT INTO llm_calls (id, run_id, seq, level, model, stage, prompt_tokens, completion_tokens, latency_ms, cost_usd, error_class, created_at)
         VALUES (?, ?, 50, 2, ?, 'plan', 11, 3, 250, 0.5, 'rate_limited', ?) ON CONFLICT DO NOTHING`,
      )
        .bind(`${R3}:50`, R3, B, at)
        .run();
    await send();
    await send();
    const rows = (
      await env.DB.prepare('SELECT * FROM llm_hourly WHERE hour = ?')
        .bind(T0 + 48 * HOUR)
        .all()
    ).results;
    expect(rows).toEqual([
      {
        hour: T0 + 48 * HOUR,
        model: B,
        level: 2,
        target: 'practice',
        calls: 1,
        errors: 1,
        prompt_tokens: 11,
        completion_tokens: 3,
        cost_usd: 0.5,
        latency_ms_sum: 250,
      },
    ]);
    // A window that starts and ends inside hours reads the roll-up for whole hours and the calls at the edges.
    const edges = analyticsSummarySchema.parse(
      (await get(`/api/analytics/summary?model=${B}&from=2025-01-02T00:00:00.005Z&to=2025-01-03T00:20:00Z`)).body,
    );
    expect(edges.modelCalls).toMatchObject({ count: 1, errors: 1 });
    const all = analyticsSummarySchema.parse(
      (await get(`/api/analytics/summary?model=${B}&from=2025-01-01T23:59:00Z&to=2025-01-03T00:20:00Z`)).body,
    );
    expect(all.modelCalls).toMatchObject({ count: 2, errors: 1, latencyMs: { p50: 7, p95: 250, p99: 250 } });
  });
});

describe('the run_levels roll-up', () => {
  it('is kept by the mirror for a real run: one row per level reached, with its figures', async () => {
    const created = await createRun({ maxRetries: 1, endLevel: 3 });
    await waitForStatus(created.id, 'completed', 30_000);
    const rows = await vi.waitFor(
      async () => {
        const found = (
          await env.DB.prepare(
            'SELECT level, solved, attempts, commands, helped FROM run_levels WHERE run_id = ? ORDER BY level',
          )
            .bind(created.id)
            .all()
        ).results;
        expect(found).toHaveLength(4);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(rows.map((r) => r.level)).toEqual([0, 1, 2, 3]);
    expect(
      rows.every((r) => r.solved === 1 && r.helped === 0 && (r.attempts as number) >= 1 && (r.commands as number) >= 1),
    ).toBe(true);
  });

  it("counts a real run's pause by its reason", async () => {
    const created = await createRun({ model: 'script-pause' });
    await waitForStatus(created.id, 'paused_for_user_action', 30_000);
    const { events } = (await (await call(`/api/runs/${created.id}/events`)).json()) as {
      events: { type: string; reason?: string }[];
    };
    const reason = events.find((e) => e.type === 'user_action_required')!.reason!;
    const row = await vi.waitFor(
      async () => {
        const found = await env.DB.prepare(
          'SELECT pauses, pause_reasons FROM run_levels WHERE run_id = ? AND pauses > 0',
        )
          .bind(created.id)
          .first<{ pauses: number; pause_reasons: string }>();
        expect(found).not.toBeNull();
        return found!;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(row.pauses).toBe(1);
    expect(JSON.parse(row.pause_reasons)).toEqual({ [reason]: 1 });
  });
});
