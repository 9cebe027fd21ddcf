// Issue 31, a batch's cost cap from its runs' side, through workerd, the run queue and the real proxy:
// each run's calls are paid from a share the queue reserves (a share too small yields for more, or
// waits), the batch's runs together never spend past the cap, each pauses at batchMaxCostUsd when the
// batch can no longer fund its next call, and a raise of the batch's cap from a run lets that run go on.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../schema/api.ts';
import type { Batch } from '../../schema/board.ts';
import { runSpendSchema } from '../../schema/budget.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { queueStatusSchema } from '../../schema/queue.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, eventsOf, ofType, postJson, waitForStatus } from './http.ts';

const read = async (id: string) => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
const costOf = (events: RunEvent[]) => ofType(events, 'llm_call').reduce((sum, c) => sum + (c.costUsd ?? 0), 0);

describe("a batch's cost cap, from its runs", () => {
  it('is never crossed by its runs together; each pauses at it, and a raise from one lets that one go on', async () => {
    // beta/solver's first call could cost about $0.0096 (its worst case), and a call costs $0.00018: three
    // runs sharing $0.0105 cannot all be funded at once, and a few calls in, none can be.
    const cap = 0.0105;
    const created = await postJson('/api/batches', {
      models: ['beta/solver'],
      repeats: 3,
      endLevel: 10,
      maxRetries: 10,
      onPause: 'wait',
      maxCostUsd: cap,
    });
    expect(created.status).toBe(201);
    const batch = (await created.json()) as Batch;
    const ids = batch.runs.map((r) => r.id);
    expect(ids).toHaveLength(3);
    await vi.waitFor(
      async () => {
        for (const id of ids) expect((await read(id)).status).toBe('paused_for_user_action');
      },
      { timeout: 60_000, interval: 100 },
    );
    const logs = await Promise.all(ids.map((id) => eventsOf(id)));
    for (const events of logs) {
      const pause = ofType(events, 'user_action_required').at(-1);
      expect(pause?.reason).toBe('budget_exceeded');
      expect(pause?.breach).toMatchObject({ cap: 'batchMaxCostUsd', limit: cap });
      // What the batch had spent and what this call would need crossed the cap; it was not sent.
      expect((pause?.breach?.spent ?? 0) + (pause?.breach?.next ?? 0)).toBeGreaterThan(cap);
    }
    const total = logs.reduce((sum, events) => sum + costOf(events), 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(cap);

    // Each run's page shows the batch's cap and what all its runs spent.
    const spend = runSpendSchema.parse((await read(ids[0] as string)).spend);
    expect(spend.caps).toEqual({});
    expect(spend.batch).toMatchObject({ id: batch.id, maxCostUsd: cap });
    expect(spend.batch?.spentUsd).toBeCloseTo(total, 9);
    expect(spend.spent.costUsd).toBeCloseTo(costOf(logs[0] as RunEvent[]), 9);

    // A batch cap below what is in force (here, below what its runs spent too) is refused, and changes nothing.
    const [first] = ids as [string];
    const low = await postJson(`/api/runs/${first}/actions`, { action: 'raise', batchMaxCostUsd: total / 2 });
    expect(low.status).toBe(400);
    // (Below the cap in force it would lower it, which a raise never does: reserved dollars may be spent.)
    expect(((await low.json()) as ApiError).error.message).toContain('a raise cannot lower the cap');
    // Raising the run's own caps does not answer a pause at the batch's.
    const own = await postJson(`/api/runs/${first}/actions`, { action: 'raise', caps: { maxCostUsd: 1 } });
    expect(own.status).toBe(400);
    expect(((await own.json()) as ApiError).error.message).toContain("the batch's cost cap (batchMaxCostUsd)");

    const before = ofType(logs[0] as RunEvent[], 'llm_call').length;
    const raised = await postJson(`/api/runs/${first}/actions`, { action: 'raise', batchMaxCostUsd: 0.05 });
    expect(raised.status).toBe(200);
    await vi.waitFor(async () => expect(ofType(await eventsOf(first), 'llm_call').length).toBeGreaterThan(before), {
      timeout: 20_000,
      interval: 50,
    });
    const [logged] = ofType(await eventsOf(first), 'caps_raised');
    expect(logged).toMatchObject({ caps: {}, batchMaxCostUsd: 0.05, by: 'an API client' });
    expect(runSpendSchema.parse((await read(first)).spend).batch?.maxCostUsd).toBe(0.05);
    for (const id of ids) await postJson(`/api/runs/${id}/actions`, { action: 'stop' });
    const after = await Promise.all(ids.map((id) => eventsOf(id)));
    expect(after.reduce((sum, events) => sum + costOf(events), 0)).toBeLessThanOrEqual(0.05);
  }, 90_000);

  it('once reached, starts no more of its runs (they pause at it too); one raise of the batch lets them all go on', async () => {
    // One run at a time: the first pauses at the cap, the second waits in the line, held by the cap.
    const created = await postJson('/api/batches', {
      models: ['beta/solver'],
      repeats: 2,
      maxRunning: 1,
      endLevel: 10,
      maxRetries: 10,
      onPause: 'wait',
      maxCostUsd: 0.0105,
    });
    expect(created.status).toBe(201);
    const batch = (await created.json()) as Batch;
    const [a, b] = batch.runs.map((r) => r.id) as [string, string];
    await vi.waitFor(async () => expect((await read(a)).status).toBe('paused_for_user_action'), {
      timeout: 60_000,
      interval: 100,
    });
    expect(ofType(await eventsOf(a), 'user_action_required').at(-1)?.breach?.cap).toBe('batchMaxCostUsd');
    // The slot the pause gave back goes to no run of the batch: the second, never started, pauses at the cap
    // too, saying why, so a person (or the CLI) answers it like any budget pause instead of waiting for ever.
    await vi.waitFor(async () => expect((await read(b)).status).toBe('paused_for_user_action'), {
      timeout: 10_000,
      interval: 100,
    });
    const held = ofType(await eventsOf(b), 'user_action_required').at(-1);
    expect(held?.breach).toMatchObject({ cap: 'batchMaxCostUsd', limit: 0.0105, next: 0 });
    expect(held?.lastError).toContain('this run had not started');
    expect(ofType(await eventsOf(b), 'llm_call')).toEqual([]);
    const line = queueStatusSchema.parse(await (await call('/api/queue')).json());
    expect(line.waiting.map((m) => m.runId)).not.toContain(b);

    const before = ofType(await eventsOf(a), 'llm_call').length;
    const raised = await postJson(`/api/batches/${batch.id}/raise`, { maxCostUsd: 0.05 });
    expect(raised.status).toBe(200);
    expect(((await raised.json()) as Batch).spend).toMatchObject({ maxCostUsd: 0.05, reached: false });
    // The paused run was answered by the batch's raise, and went on.
    await vi.waitFor(async () => expect(ofType(await eventsOf(a), 'llm_call').length).toBeGreaterThan(before), {
      timeout: 20_000,
      interval: 50,
    });
    expect(ofType(await eventsOf(a), 'caps_raised')).toEqual([expect.objectContaining({ batchMaxCostUsd: 0.05 })]);
    expect(ofType(await eventsOf(b), 'caps_raised')).toEqual([expect.objectContaining({ batchMaxCostUsd: 0.05 })]);
    await postJson(`/api/runs/${a}/actions`, { action: 'stop' });
    // Its slot free again, the held run starts and spends from the raised cap.
    await vi.waitFor(async () => expect(ofType(await eventsOf(b), 'llm_call').length).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 100,
    });
    await postJson(`/api/runs/${b}/actions`, { action: 'stop' });
    const spent = (await eventsOf(a)).concat(await eventsOf(b));
    expect(costOf(spent)).toBeLessThanOrEqual(0.05);
    // A raise not above what was spent is refused, and a batch without a cap has none to raise.
    expect((await postJson(`/api/batches/${batch.id}/raise`, { maxCostUsd: 0.0001 })).status).toBe(400);
    expect((await postJson(`/api/batches/${batch.id}/raise`, { maxCostUsd: 0 })).status).toBe(400);
  }, 120_000);

  it('is not asked of the queue again once it says the batch has none', async () => {
    const created = await postJson('/api/batches', { models: ['baseline'], repeats: 1, endLevel: 2 });
    expect(created.status).toBe(201);
    const [run] = ((await created.json()) as Batch).runs;
    await waitForStatus(run?.id as string, 'completed', 30_000);
    expect(runSpendSchema.parse((await read(run?.id as string)).spend).batch).toBeNull();
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName(run?.id as string));
    const row = await runInDurableObject(stub, (_i: RunSession, state) =>
      state.storage.sql.exec('SELECT batch_capped, batch FROM budget').toArray(),
    );
    expect(row).toEqual([{ batch_capped: 0, batch: null }]);
  });
});
