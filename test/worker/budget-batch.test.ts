// Issue 31, a batch's cost cap from its runs' side, through workerd, the run queue and the real proxy:
// each run's calls are paid from a share the queue reserves (a share too small yields for more, or
// waits), the batch's runs together never spend past the cap, each pauses at batchMaxCostUsd when the
// batch can no longer fund its next call, and a raise of the batch's cap from a run lets that run go on.
import { describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../schema/api.ts';
import type { Batch } from '../../schema/board.ts';
import { runSpendSchema } from '../../schema/budget.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { call, eventsOf, ofType, postJson } from './http.ts';

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

    // A batch cap not above what its runs spent is refused, and changes nothing.
    const [first] = ids as [string];
    const low = await postJson(`/api/runs/${first}/actions`, { action: 'raise', batchMaxCostUsd: total / 2 });
    expect(low.status).toBe(400);
    expect(((await low.json()) as ApiError).error.message).toContain(
      "batchMaxCostUsd must be above what the batch's runs have already spent",
    );
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
});
