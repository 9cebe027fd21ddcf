// Issue 33: which world of the practice range a run plays in, through the worker against the real proxy and range.
// A person's run is shared unless it asks, a batch's runs are private, each keyed to its own id; a fork keeps its
// parent's world and a verification gets a fresh one; a private world on the real server and a key sent by a client
// are refused; and the board keeps a model's shared- and private-world runs in separate rows that say which.
import { describe, expect, it, vi } from 'vitest';
import { batchSchema, boardSchema } from '../../schema/board.ts';
import type { RunSummary } from '../../schema/run.ts';
import { call, createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';

const readRun = async (id: string) => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string } }).error;

describe('the world a run plays in', () => {
  it("is the shared one for a person's run, and a private one keyed to the run when asked", async () => {
    const shared = await createRun({ model: 'baseline', endLevel: 0 });
    expect(shared.config.world).toBe('shared');
    expect(shared.config.worldKey).toBeUndefined();
    const own = await createRun({ model: 'baseline', endLevel: 0, world: 'private' });
    expect(own.config).toMatchObject({ world: 'private', worldKey: own.id });
    // Kept for the run's whole life: what its object says later is the same.
    expect((await readRun(own.id)).config).toMatchObject({ world: 'private', worldKey: own.id });
    // Both play level 0 to the end, each in its world.
    const listed = await Promise.all([
      waitForStatus(shared.id, 'completed', 30_000),
      waitForStatus(own.id, 'completed', 30_000),
    ]);
    expect(listed.map((r) => r.levelsSolved)).toEqual([1, 1]);
  }, 60_000);

  it('refuses a private world on the real server, a key sent by a client, and a world that is neither', async () => {
    const bandit = await postJson('/api/runs', { target: 'bandit', endLevel: 0, world: 'private' });
    expect(bandit.status).toBe(400);
    expect((await errorOf(bandit)).message).toMatch(/world: the real Bandit server has one world/);
    const keyed = await postJson('/api/runs', { world: 'private', worldKey: 'run_someoneelsesworld00000001' });
    expect(keyed.status).toBe(400);
    expect((await errorOf(keyed)).message).toMatch(/worldKey: a private world is keyed to its own run/);
    const odd = await postJson('/api/runs', { world: 'mine' });
    expect(odd.status).toBe(400);
    expect((await errorOf(odd)).message).toMatch(/world: must be "shared"/);
    const batch = await postJson('/api/batches', { models: ['baseline'], target: 'bandit', world: 'private' });
    expect(batch.status).toBe(400);
    expect((await errorOf(batch)).message).toMatch(/world: the real Bandit server has one world/);
  });

  it("gives a batch's runs a private world each; the board keeps them apart from shared runs and says which", async () => {
    const from = new Date(Date.now() - 1).toISOString();
    const response = await postJson('/api/batches', { models: ['baseline'], endLevel: 0, repeats: 2 });
    expect(response.status).toBe(201);
    const made = batchSchema.parse(await response.json());
    expect(made.config.world).toBe('private');
    expect(made.runs.map((r) => r.config.world)).toEqual(['private', 'private']);
    // Each run is keyed to itself: the two never see each other's files.
    for (const run of made.runs) expect((await readRun(run.id)).config.worldKey).toBe(run.id);
    // A batch may share the world, as a person's runs do.
    const sharedBatch = await postJson('/api/batches', { models: ['baseline'], endLevel: 0, world: 'shared' });
    const sharedMade = batchSchema.parse(await sharedBatch.json());
    expect(sharedMade.runs.map((r) => r.config.world)).toEqual(['shared']);
    const person = await createRun({ model: 'baseline', endLevel: 0 });

    for (const id of [...made.runs, ...sharedMade.runs].map((r) => r.id).concat(person.id))
      await waitForStatus(id, 'completed', 30_000);
    await vi.waitFor(
      async () => {
        const board = boardSchema.parse(await (await call(`/api/board?from=${from}`)).json());
        const rows = board.models.filter((m) => m.model === 'baseline').map((m) => [m.world, m.runs]);
        expect(rows.sort()).toEqual([
          ['private', 2],
          ['shared', 2],
        ]);
        // Each cell names the world of its row.
        const cells = board.cells.filter((c) => c.model === 'baseline').map((c) => [c.world, c.level, c.runs]);
        expect(cells.sort()).toEqual([
          ['private', 0, 2],
          ['shared', 0, 2],
        ]);
      },
      { timeout: 30_000, interval: 200 },
    );
    const batchBoard = boardSchema.parse(await (await call(`/api/board?batch=${made.id}`)).json());
    expect(batchBoard.models.map((m) => [m.model, m.world, m.runs])).toEqual([['baseline', 'private', 2]]);
    // The run index says it too.
    const list = (await (await call('/api/runs?limit=10')).json()) as { runs: RunSummary[] };
    expect(list.runs.find((r) => r.id === person.id)?.config.world).toBe('shared');
    expect(list.runs.find((r) => r.id === made.runs[0]!.id)?.config.world).toBe('private');
  }, 90_000);

  it("keeps a fork in its parent's world, and verifies a run in a fresh world of the verification's own", async () => {
    const parent = await createRun({
      model: 'fake-model',
      budget: 2,
      maxRetries: 1,
      endLevel: 0,
      finalAttempt: false,
      world: 'private',
    });
    await waitForStatus(parent.id, 'paused_for_user_action', 30_000);
    const pause = ofType(await eventsOf(parent.id), 'user_action_required').at(-1)!;
    const forked = await postJson(`/api/runs/${parent.id}/fork`, { seq: pause.seq, hint: 'look in /tmp' });
    expect(forked.status).toBe(201);
    const fork = (await forked.json()) as RunSummary;
    // The files the parent's steps made are where the fork goes on.
    expect(fork.config).toMatchObject({ world: 'private', worldKey: parent.id });
    for (const id of [fork.id, parent.id]) await postJson(`/api/runs/${id}/actions`, { action: 'stop' });

    const solved = await createRun({ model: 'baseline', endLevel: 0 });
    await waitForStatus(solved.id, 'completed', 30_000);
    const verify = await postJson(`/api/runs/${solved.id}/verify`, {});
    expect(verify.status).toBe(201);
    const replay = (await verify.json()) as RunSummary;
    expect(replay.config).toMatchObject({ world: 'private', worldKey: replay.id });
    // It re-plays the solving commands in that world, and they still solve the level there.
    const done = await waitForStatus(replay.id, 'completed', 30_000);
    expect(done.levelsSolved).toBe(1);
  }, 90_000);
});
