// Issue 31, at the door and in the run's view: a cost cap on a model with no price is refused (the cap
// could not be enforced), the run's caps and spent figures are in GET /api/runs/:id and the socket's
// snapshot, and "raise" is refused (409, saying when it applies) away from a budget pause.
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../schema/api.ts';
import { runSpendSchema } from '../../schema/budget.ts';
import type { RunSummary } from '../../schema/run.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const read = async (id: string) => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;

describe('budgets at the door', () => {
  it('refuses a cost cap on a model with no price, and takes it on a priced model and the baseline', async () => {
    // fake-model (OPENAI_MODELS) has no price; beta/solver is priced {input: 1, output: 2} $/Mtok.
    const unpriced = await postJson('/api/runs', { model: 'fake-model', caps: { maxCostUsd: 1 } });
    expect(unpriced.status).toBe(400);
    const body = (await unpriced.json()) as ApiError;
    expect(body.error.code).toBe('unpriced_model');
    expect(body.error.message).toContain(
      'model "fake-model" has no price, so a cost cap (maxCostUsd) could not be enforced',
    );
    expect(body.error.message).toContain('set its price in PROVIDERS or drop maxCostUsd');
    expect(body.error.message).toContain('beta/solver');
    // Other caps need no price.
    const counted = await createRun({ model: 'fake-model', caps: { maxCommands: 2 }, endLevel: 0 });
    await postJson(`/api/runs/${counted.id}/actions`, { action: 'stop' });
    const priced = await createRun({ model: 'beta/solver', caps: { maxCostUsd: 1 }, endLevel: 0 });
    const baseline = await createRun({ model: 'baseline', caps: { maxCostUsd: 0.5 }, endLevel: 0 });
    for (const run of [priced, baseline]) await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 30_000);

  it('refuses a batch cost cap when one of its models has no price, and makes none of its runs', async () => {
    const before = ((await (await call('/api/batches')).json()) as { batches: unknown[] }).batches.length;
    const refused = await postJson('/api/batches', { models: ['beta/solver', 'fake-model'], maxCostUsd: 1 });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as ApiError;
    expect(body.error.code).toBe('unpriced_model');
    expect(body.error.message).toContain('fake-model has no price, so a cost cap could not be enforced');
    expect(((await (await call('/api/batches')).json()) as { batches: unknown[] }).batches).toHaveLength(before);
    const zero = await postJson('/api/batches', { models: ['beta/solver'], maxCostUsd: 0 });
    expect(zero.status).toBe(400);
    expect(((await zero.json()) as ApiError).error.message).toContain('maxCostUsd');
  });

  it('refuses a cap of zero or below with a message naming it', async () => {
    const zero = await postJson('/api/runs', { model: 'baseline', caps: { maxCommands: 0 } });
    expect(zero.status).toBe(400);
    expect(((await zero.json()) as ApiError).error.message).toContain('caps.maxCommands');
  });
});

describe('the run shows its caps and what it spent', () => {
  it('in GET /api/runs/:id and the snapshot, with no batch; a raise away from a budget pause is 409', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 3, paceMs: 150, caps: { maxCommands: 500 } });
    await waitForStatus(run.id, 'completed', 30_000);
    const done = await read(run.id);
    const spend = runSpendSchema.parse(done.spend);
    expect(spend.caps).toEqual({ maxCommands: 500 });
    expect(spend.batch).toBeNull();
    // The baseline's commands and its (free) model calls, counted by the one fold.
    expect(spend.spent.commands).toBeGreaterThan(3);
    expect(spend.spent.modelCalls).toBeGreaterThan(0);
    expect(spend.spent.costUsd).toBe(0);
    expect(spend.spent.wallSeconds).toBeGreaterThan(0);
    // An ended run's wall time no longer grows.
    expect((await read(run.id)).spend?.spent.wallSeconds).toBe(spend.spent.wallSeconds);

    const socket = await connect(`/api/runs/${run.id}/ws?since=0`);
    await socket.next(); // welcome
    const snapshot = await socket.next();
    expect(snapshot.type).toBe('snapshot');
    if (snapshot.type === 'snapshot') expect(snapshot.run.spend).toEqual(spend);
    socket.ws.close();

    const ended = await postJson(`/api/runs/${run.id}/actions`, { action: 'raise', caps: { maxCommands: 900 } });
    expect(ended.status).toBe(409);
    expect(((await ended.json()) as ApiError).error.message).toContain('already completed');
  }, 40_000);

  it('refuses a raise while the run runs, or at a pause that is not a budget one', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 20, paceMs: 300 });
    await waitForStatus(run.id, 'running', 20_000);
    const running = await postJson(`/api/runs/${run.id}/actions`, { action: 'raise', caps: { maxCommands: 10 } });
    expect(running.status).toBe(409);
    expect(((await running.json()) as ApiError).error.message).toBe(
      'the run is running; "raise" answers a run paused at a budget cap (budget_exceeded)',
    );
    expect((await postJson(`/api/runs/${run.id}/actions`, { action: 'pause' })).status).toBe(200);
    const paused = await postJson(`/api/runs/${run.id}/actions`, { action: 'raise', caps: { maxCommands: 10 } });
    expect(paused.status).toBe(409);
    expect(((await paused.json()) as ApiError).error.message).toContain('(user_requested)');
    // The same refusal over the socket, as an error frame.
    const socket = await connect(`/api/runs/${run.id}/ws`);
    await socket.next(); // welcome
    socket.send({ type: 'user_action', action: 'raise', caps: { maxCommands: 10 } });
    expect(await socket.next()).toMatchObject({ type: 'error', code: 'conflict' });
    socket.ws.close();
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 40_000);
});
