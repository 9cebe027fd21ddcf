// The batch's owner (the run queue) checks and takes a batch's dollars in one step: runs racing for the
// last of a cap, each reserving, spending and settling over RPC at once, never spend more than the cap.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { newBatchId, newRunId } from '../../worker/run-id.ts';
import { queueFor } from '../../worker/run-queue.ts';

/** A seeded generator, so a failure can be run again. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const runsOf12 = 12;

describe('a batch cost cap at its owner', () => {
  it('is never exceeded in total by runs that reserve, spend and settle at once', async () => {
    const queue = queueFor(env);
    const cap = 0.5;
    const batchId = newBatchId();
    await queue.openBatch(batchId, cap, runsOf12);
    const random = seeded(31);
    const runs = Array.from({ length: runsOf12 }, () => ({ id: newRunId(), spent: 0, calls: 0, waits: 0 }));
    let stoppedAtCap = 0;
    await Promise.all(
      runs.map(async (run) => {
        for (;;) {
          const need = 0.005 + random() * 0.03;
          const grant = await queue.reserveBatch(batchId, run.id, run.spent, need);
          if (!grant) throw new Error('the batch lost its cap');
          if (grant.allowanceUsd >= need) {
            // A call: it spends at most its worst case, and that only after other runs had their turn.
            await new Promise((r) => setTimeout(r, random() * 5));
            run.spent += need * random();
            run.calls += 1;
            await queue.settleBatch(batchId, run.id, run.spent);
          } else if (grant.exhaustive) {
            stoppedAtCap += 1;
            return;
          } else {
            run.waits += 1;
            await new Promise((r) => setTimeout(r, 2));
          }
        }
      }),
    );
    const total = runs.reduce((n, r) => n + r.spent, 0);
    const budget = await queue.batchBudget(batchId);
    console.log(
      `batch cap $${cap}: ${runs.length} runs, ${runs.reduce((n, r) => n + r.calls, 0)} calls, ` +
        `${runs.reduce((n, r) => n + r.waits, 0)} waits for others' reservations, spent $${total.toFixed(4)}, ` +
        `${stoppedAtCap} stopped at the cap`,
    );
    expect(total).toBeLessThanOrEqual(cap);
    expect(budget?.spentUsd).toBeCloseTo(total, 9);
    expect(budget?.reservedUsd).toBe(0);
    expect(budget?.reached).toBe(true);
    expect(stoppedAtCap).toBe(runs.length);
    // Every run stopped only when what was left could not cover its next call's worst case (at most $0.035).
    expect(cap - total).toBeLessThan(0.035);
  });

  it('grants nothing short of the need, raises only above what was spent, and a raise reopens the batch', async () => {
    const queue = queueFor(env);
    const batchId = newBatchId();
    const [a, b] = [newRunId(), newRunId()];
    await queue.openBatch(batchId, 1, 2);
    // Two runs in the batch, neither holding a slot yet: each may hold half of what is left, or its need if more.
    const first = await queue.reserveBatch(batchId, a, 0, 0.1);
    expect(first).toMatchObject({ allowanceUsd: 0.5, exhaustive: false, spentUsd: 0, maxCostUsd: 1 });
    // b's need of 0.6 does not fit in the half a does not hold: nothing, until a settles (not the cap: not exhaustive).
    expect(await queue.reserveBatch(batchId, b, 0, 0.6)).toMatchObject({ allowanceUsd: 0, exhaustive: false });
    await queue.settleBatch(batchId, a, 0.7);
    // 0.3 left: b's share would be 0.15, but it needs 0.2, so it gets its need.
    const second = await queue.reserveBatch(batchId, b, 0, 0.2);
    expect(second?.allowanceUsd).toBeCloseTo(0.2, 9);
    expect(second?.exhaustive).toBe(false);
    // b ends: from now on a shares what is left with no one.
    await queue.settleBatch(batchId, b, 0.25, true);
    // 0.05 left: a need of 0.06 cannot be met even with every reservation back.
    const last = await queue.reserveBatch(batchId, a, 0.7, 0.06);
    expect(last).toMatchObject({ allowanceUsd: 0, exhaustive: true });
    expect((await queue.batchBudget(batchId))?.reached).toBe(true);
    // Spend only grows: a late, lower report changes nothing.
    await queue.settleBatch(batchId, a, 0.1);
    expect((await queue.batchBudget(batchId))?.spentUsd).toBeCloseTo(0.95, 9);
    expect(await queue.raiseBatch(batchId, 0.9)).toMatchObject({ ok: false });
    expect(await queue.raiseBatch(batchId, 2)).toEqual({ ok: true });
    expect(await queue.batchBudget(batchId)).toMatchObject({ maxCostUsd: 2, reached: false });
    // A raise never lowers the cap (what was reserved under it may be spent); the same cap again changes nothing.
    expect(await queue.raiseBatch(batchId, 1.5)).toMatchObject({
      ok: false,
      message: expect.stringContaining('lower'),
    });
    expect(await queue.raiseBatch(batchId, 2)).toEqual({ ok: true });
    const alone = await queue.reserveBatch(batchId, a, 0.7, 0.01);
    expect(alone?.allowanceUsd).toBeCloseTo(1.05, 9);
    expect(await queue.reserveBatch(newBatchId(), a, 0, 0.1)).toBeNull();
  });
});
