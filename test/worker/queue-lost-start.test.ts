// A slot the queue handed out whose start never reached the run (a restart between the queue's
// SQL and the run's own schedule) must not hold the run queued for ever: the queue's check starts it.
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { newRunId } from '../../worker/run-id.ts';
import { noteRunExists, sessionFor } from '../../worker/run-lookup.ts';
import { queueFor } from '../../worker/run-queue.ts';
import type { RunQueue } from '../../worker/run-queue.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { waitForStatus } from './http.ts';

describe('a start cut short', () => {
  it('is asked again by the queue check, and the run goes on from queued', async () => {
    const id = newRunId();
    await queueFor(env).register(id);
    const made = await sessionFor(env, id).create(id, runConfigSchema.parse({ startLevel: 0, endLevel: 0 }));
    expect(made?.status).toBe('queued');
    noteRunExists(id);
    // The queue's half of a start: the slot is taken in its SQL, and the call to the run is lost.
    const queue = queueFor(env);
    await runInDurableObject(queue, async (_q: RunQueue, state) => {
      state.storage.sql.exec(
        "INSERT INTO members (run_id, provider, max_concurrent, state, priority, seq, since, batch_id, batch_limit) VALUES (?, 'baseline', NULL, 'running', 0, 0, ?, NULL, NULL)",
        id,
        Date.now(),
      );
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    expect((await queue.status()).running.map((m) => m.runId)).toContain(id);
    // Without the check the run would stay queued: nothing else would ever start it.
    await new Promise((r) => setTimeout(r, 300));
    expect((await sessionFor(env, id).summary())?.status).toBe('queued');
    expect(await runDurableObjectAlarm(queue)).toBe(true);
    const ended = await waitForStatus(id, 'completed', 15_000);
    expect(ended.levelsSolved).toBe(1);
  }, 30_000);
});
