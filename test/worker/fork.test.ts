// Issue 32: fork a run from any step. Against workerd, the real proxy and the practice range: a run paused at
// max retries is forked twice at its pause with two different hints (and the baseline, which runs a command a
// hint names in backticks); both forks' logs are the parent's up to the pause, shared and not copied, and
// their paths after it differ. A seq with no kept checkpoint is refused with the nearest kept ones.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { eventsOf as eventsOfMessage } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { queueStatusSchema } from '../../schema/queue.ts';
import { QueueLine } from '../../worker/queue-line.ts';
import type { RunQueue } from '../../worker/run-queue.ts';
import { queueFor } from '../../worker/run-queue.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const stubOf = (id: string) => env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
const fork = (id: string, body: Record<string, unknown>) => postJson(`/api/runs/${id}/fork`, body);
const forkOk = async (id: string, body: Record<string, unknown>): Promise<RunSummary> => {
  const response = await fork(id, body);
  if (response.status !== 201) throw new Error(`fork failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as RunSummary;
};
/** The commands a run's log holds after `seq`. */
const commandsAfter = (events: RunEvent[], seq: number) =>
  ofType(events, 'command')
    .filter((e) => e.seq > seq)
    .map((e) => e.command);
/** The seqs the fork's own object stores (its events table), not its parent's. */
const ownSeqs = (id: string) =>
  runInDurableObject(stubOf(id), (_i: RunSession, state) =>
    state.storage.sql
      .exec<{ seq: number }>('SELECT seq FROM events ORDER BY seq')
      .toArray()
      .map((r) => r.seq),
  );
/** The seqs whose checkpoint a run keeps. */
const keptSeqs = (id: string) =>
  runInDurableObject(stubOf(id), (_i: RunSession, state) =>
    state.storage.sql
      .exec<{ seq: number }>('SELECT DISTINCT seq FROM checkpoint_history ORDER BY seq')
      .toArray()
      .map((r) => r.seq),
  );
const stop = (id: string) => postJson(`/api/runs/${id}/actions`, { action: 'stop' });

/** A fake-model run (a new command each turn, never solving) that pauses at max retries on level 0. */
async function pausedRun(): Promise<{ run: RunSummary; events: RunEvent[]; pauseSeq: number }> {
  const run = await createRun({ model: 'fake-model', budget: 2, maxRetries: 1, endLevel: 0, finalAttempt: false });
  await waitForStatus(run.id, 'paused_for_user_action', 30_000);
  const events = await eventsOf(run.id);
  const pause = ofType(events, 'user_action_required').at(-1);
  expect(pause?.reason).toBe('max_retries');
  return { run, events, pauseSeq: pause?.seq ?? 0 };
}

describe('fork a run from a step', () => {
  it('forks a paused run twice with two hints: the same records up to the pause, two paths after it', async () => {
    const parent = await pausedRun();
    const hints = { alpha: 'try `echo path-alpha-7`', beta: 'try `echo path-beta-9`' };
    const a = await forkOk(parent.run.id, { seq: parent.pauseSeq, model: 'baseline', hint: hints.alpha });
    const b = await forkOk(parent.run.id, { seq: parent.pauseSeq, model: 'baseline', hint: hints.beta });
    expect(a).toMatchObject({ parentId: parent.run.id, forkSeq: parent.pauseSeq, config: { model: 'baseline' } });
    expect(b).toMatchObject({ parentId: parent.run.id, forkSeq: parent.pauseSeq });
    // The fork plays on the parent's level set: the steps it shares were played on it.
    expect(a.config.levelSet).toBeDefined();
    expect(a.config.levelSet).toEqual(parent.run.config.levelSet);
    // Each fork runs the command its hint names; the baseline goes on from there.
    for (const [id, marker] of [
      [a.id, 'path-alpha-7'],
      [b.id, 'path-beta-9'],
    ] as const)
      await vi.waitFor(
        async () => expect(commandsAfter(await eventsOf(id), parent.pauseSeq).join('\n')).toContain(marker),
        { timeout: 30_000, interval: 50 },
      );
    await Promise.all([stop(a.id), stop(b.id)]);
    const [eventsA, eventsB] = [await eventsOf(a.id), await eventsOf(b.id)];
    const upTo = parent.events.filter((e) => e.seq <= parent.pauseSeq);
    // Identical records up to the fork: same seq, type and payload (each is the parent's own event).
    expect(eventsA.slice(0, parent.pauseSeq)).toEqual(upTo);
    expect(eventsB.slice(0, parent.pauseSeq)).toEqual(upTo);
    // Then each fork's own: numbered from forkSeq + 1, opened by `forked`, the hint answering the pause.
    expect(eventsA[parent.pauseSeq]).toMatchObject({
      seq: parent.pauseSeq + 1,
      runId: a.id,
      type: 'forked',
      parentId: parent.run.id,
      forkSeq: parent.pauseSeq,
      changes: { model: 'baseline', hint: hints.alpha },
    });
    expect(eventsA[parent.pauseSeq + 1]).toMatchObject({
      type: 'user_action_resolved',
      action: 'continue',
      hint: hints.alpha,
    });
    expect(eventsA.map((e) => e.seq)).toEqual(eventsA.map((_, i) => i + 1));
    // Two paths after the fork: each ran its own hint's command and not the other's.
    const [afterA, afterB] = [commandsAfter(eventsA, parent.pauseSeq), commandsAfter(eventsB, parent.pauseSeq)];
    expect(afterA.join('\n')).not.toContain('path-beta-9');
    expect(afterB.join('\n')).not.toContain('path-alpha-7');
    expect(afterA).not.toEqual(afterB);
    // Compared side by side (GET /api/compare), the two forks part only after the pause they share.
    const compared = (await (await call(`/api/compare?a=${a.id}&b=${b.id}`)).json()) as {
      firstDifference: { a: { seq: number } | null; b: { seq: number } | null } | null;
    };
    expect(compared.firstDifference?.a?.seq).toBeGreaterThan(parent.pauseSeq);
    expect(compared.firstDifference?.b?.seq).toBeGreaterThan(parent.pauseSeq);
    // Shared, not copied: the fork's own events table starts after the fork.
    const own = await ownSeqs(a.id);
    expect(own[0]).toBe(parent.pauseSeq + 1);
    expect(own.filter((seq) => seq <= parent.pauseSeq)).toEqual([]);
    // The parent lists its forks; each fork's summary names its parent.
    const listed = (await (await call(`/api/runs/${parent.run.id}/forks`)).json()) as { forks: { id: string }[] };
    expect(listed.forks.map((f) => f.id).sort()).toEqual([a.id, b.id].sort());
    expect(await (await call(`/api/runs/${a.id}`)).json()).toMatchObject({ parentId: parent.run.id });
    // The socket's replay is the same log: the parent's prefix, then the fork's own.
    const socket = await connect(`/api/runs/${a.id}/ws?since=0`);
    expect((await socket.next()).type).toBe('welcome');
    expect((await socket.next()).type).toBe('snapshot');
    const replayed: RunEvent[] = [];
    while (replayed.length < eventsA.length) replayed.push(...eventsOfMessage(await socket.next()));
    expect(replayed).toEqual(eventsA);
    socket.ws.close();
    // The prefix is read in pages: a page after `since` ends at `through`.
    const page = await stubOf(parent.run.id).eventsThrough(parent.pauseSeq, 5);
    expect(page?.map((row) => row.seq)).toEqual(upTo.slice(5).map((e) => e.seq));
    // Figures for docs/forks.md: the checkpoints kept per step.
    const kept = await runInDurableObject(stubOf(parent.run.id), (_i: RunSession, state) =>
      state.storage.sql
        .exec<{ rows: number; wholes: number; whole: number; patch: number; events: number }>(
          `SELECT count(*) AS rows, count(whole) AS wholes, coalesce(sum(length(whole)), 0) AS whole,
             coalesce(sum(length(patch)), 0) AS patch, (SELECT coalesce(sum(length(json)), 0) FROM events) AS events
           FROM checkpoint_history`,
        )
        .one(),
    );
    console.log(`checkpoint history of the paused run: ${JSON.stringify(kept)}`);
  }, 90_000);

  it('starts a fork without a hint paused where its parent paused, and forks a fork through its parent', async () => {
    const parent = await pausedRun();
    const a = await forkOk(parent.run.id, { seq: parent.pauseSeq });
    expect(a.status).toBe('paused_for_user_action');
    const pending = (await (await call(`/api/runs/${a.id}`)).json()) as RunSummary;
    expect(pending).toMatchObject({ status: 'paused_for_user_action', levelsSolved: 0, forkSeq: parent.pauseSeq });
    // A model call before the fork is the parent's: the fork's route finds it, indexed under the parent.
    const shared = ofType(parent.events, 'llm_call')[0]!;
    await vi.waitFor(
      async () => {
        const detail = await call(`/api/runs/${a.id}/llm-calls/${shared.callId}`);
        expect(detail.status).toBe(200);
        expect(await detail.json()).toMatchObject({ call: { runId: parent.run.id, seq: shared.seq } });
      },
      { timeout: 10_000, interval: 100 },
    );
    // The prefix lives in memory: an object that restarts reads it from its parent again, for REST and the socket.
    const before = await eventsOf(a.id);
    await runInDurableObject(stubOf(a.id), (_i: RunSession, state) => state.abort('restart for the test')).catch(
      () => undefined,
    );
    expect(await eventsOf(a.id)).toEqual(before);
    const socket = await connect(`/api/runs/${a.id}/ws`);
    expect((await socket.next()).type).toBe('welcome');
    socket.send({ type: 'hello', since: parent.pauseSeq - 2 });
    expect((await socket.next()).type).toBe('snapshot');
    expect(eventsOfMessage(await socket.next()).map((e) => e.seq)[0]).toBe(parent.pauseSeq - 1);
    socket.ws.close();
    // D1 mirrors the fork's origin.
    await vi.waitFor(
      async () =>
        expect(await env.DB.prepare('SELECT parent_id, fork_seq FROM runs WHERE id = ?').bind(a.id).first()).toEqual({
          parent_id: parent.run.id,
          fork_seq: parent.pauseSeq,
        }),
      { timeout: 10_000, interval: 100 },
    );
    // Not a trial of its own: no level roll-ups, so the board and the forecast never count it (the parent's are there).
    const rolledUp = (id: string) =>
      env.DB.prepare('SELECT count(*) AS n FROM run_levels WHERE run_id = ?').bind(id).first<{ n: number }>();
    expect((await rolledUp(a.id))?.n).toBe(0);
    await vi.waitFor(async () => expect((await rolledUp(parent.run.id))?.n).toBeGreaterThan(0), {
      timeout: 10_000,
      interval: 100,
    });
    const listed = (await (await call('/api/runs?limit=100')).json()) as { runs: RunSummary[] };
    expect(listed.runs.find((r) => r.id === a.id)).toMatchObject({ parentId: parent.run.id, forkSeq: parent.pauseSeq });
    // A fork of the fork, at a step of the parent's before the first fork: the prefix comes through the fork.
    const seq = (await keptSeqs(parent.run.id)).filter((s) => s < parent.pauseSeq).at(-1) ?? 0;
    expect(seq).toBeGreaterThan(0);
    const c = await forkOk(a.id, { seq });
    expect(c).toMatchObject({ parentId: a.id, forkSeq: seq });
    await vi.waitFor(async () => expect((await eventsOf(c.id)).length).toBeGreaterThan(seq), { timeout: 10_000 });
    const eventsC = await eventsOf(c.id);
    expect(eventsC.slice(0, seq)).toEqual(parent.events.filter((e) => e.seq <= seq));
    expect(eventsC[seq]).toMatchObject({ type: 'forked', parentId: a.id, forkSeq: seq });
    await Promise.all([stop(a.id), stop(c.id), stop(parent.run.id)]);
  }, 90_000);

  it("a fork paused without a hint counts against its model's provider once a person continues it", async () => {
    const parent = await pausedRun();
    // "slow/slow": provider "slow", at most 2 at once (test/support/worker-global-setup.ts).
    const f = await forkOk(parent.run.id, { seq: parent.pauseSeq, model: 'slow/slow' });
    expect(f.status).toBe('paused_for_user_action');
    // The queue knows it already, holding no slot: idle, under its model's provider.
    const known = await runInDurableObject(queueFor(env), (_q, state) =>
      state.storage.sql
        .exec<{ provider: string; state: string }>('SELECT provider, state FROM members WHERE run_id = ?', f.id)
        .toArray(),
    );
    expect(known).toEqual([{ provider: 'slow', state: 'idle' }]);
    const continued = await postJson(`/api/runs/${f.id}/actions`, { action: 'continue' });
    expect(continued.status).toBe(200);
    // Waiting or running, it counts against "slow"'s limit, not as provider "unknown" with none.
    const line = queueStatusSchema.parse(await (await call('/api/queue')).json());
    const member = [...line.running, ...line.waiting].find((m) => m.runId === f.id);
    expect(member).toMatchObject({ provider: 'slow', limit: 2 });
    await Promise.all([stop(f.id), stop(parent.run.id)]);
  }, 60_000);

  it('a paused fork continued before the queue heard of it takes its provider when its admission comes', async () => {
    // A queue object of its own, so the line the other tests share is untouched.
    const stub = env.RUN_QUEUE.get(env.RUN_QUEUE.idFromName('fork-test-late-admission'));
    const member = await runInDurableObject(stub, (_q: RunQueue, state) => {
      const line = new QueueLine(state.storage.sql);
      // The person's continue (requeue: no provider) arrives first, then launchFork's idle admission.
      line.admit('run_late', { provider: null, limit: null, front: true }, 1);
      line.admit('run_late', { provider: 'slow', limit: 2, front: false, idle: true }, 2);
      return line.member('run_late');
    });
    expect(member).toMatchObject({ provider: 'slow', limit: 2, state: 'waiting' });
  });

  it('forks at a step that is no pause: queued, the hint a message the agent reads at its next turn', async () => {
    const parent = await pausedRun();
    // The first kept step, before the agent's first turn: its command budget is whole.
    const seq = (await keptSeqs(parent.run.id))[0] ?? 0;
    const hint = 'try `echo via-message-5`';
    const d = await forkOk(parent.run.id, { seq, model: 'baseline', hint });
    expect(d).toMatchObject({ parentId: parent.run.id, forkSeq: seq });
    expect(['queued', 'running']).toContain(d.status);
    // The baseline runs the command a hint names in backticks, at its next turn.
    await vi.waitFor(async () => expect(commandsAfter(await eventsOf(d.id), seq).join('\n')).toContain('via-message'), {
      timeout: 30_000,
      interval: 50,
    });
    await stop(d.id);
    const events = await eventsOf(d.id);
    expect(events.slice(0, seq)).toEqual(parent.events.filter((e) => e.seq <= seq));
    expect(events.slice(seq, seq + 2)).toMatchObject([
      { seq: seq + 1, type: 'forked', changes: { hint } },
      { seq: seq + 2, type: 'message_sent', text: hint },
    ]);
    expect(ofType(events, 'message_read')[0]).toMatchObject({ messageSeq: seq + 2 });
    // No pause was answered with it: it went to the inbox.
    expect(ofType(events, 'user_action_resolved').filter((e) => e.seq > seq && e.hint)).toEqual([]);
    await stop(parent.run.id);
  }, 60_000);

  it('refuses a seq with no kept checkpoint, naming the nearest kept seqs, and an unknown model', async () => {
    const parent = await pausedRun();
    // A model call's events and its node are one step: the step ends at the node, so the call's seq is not kept.
    const command = ofType(parent.events, 'llm_call')[0]!;
    const refused = await fork(parent.run.id, { seq: command.seq });
    expect(refused.status).toBe(409);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('not_forkable');
    expect(body.error.message).toMatch(
      new RegExp(
        `^step ${command.seq} has no kept checkpoint: .*the nearest before is \\d+, the nearest after is \\d+$`,
      ),
    );
    const after = Number(/nearest after is (\d+)/.exec(body.error.message)?.[1]);
    expect(after).toBeGreaterThan(command.seq);
    expect(after).toBeLessThanOrEqual(parent.pauseSeq);
    const past = await fork(parent.run.id, { seq: parent.pauseSeq + 1000 });
    expect(past.status).toBe(409);
    expect(((await past.json()) as { error: { message: string } }).error.message).toContain("the run's log ends at");
    const unknown = await fork(parent.run.id, { seq: parent.pauseSeq, model: 'no-such-model' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 'unknown_model' } });
    const bad = await fork(parent.run.id, { seq: 0 });
    expect(bad.status).toBe(400);
    // fake-model has no price: a cost cap could not be enforced, as POST /api/runs says.
    const unpriced = await fork(parent.run.id, { seq: parent.pauseSeq, caps: { maxCostUsd: 1 } });
    expect(unpriced.status).toBe(400);
    expect(await unpriced.json()).toMatchObject({ error: { code: 'unpriced_model' } });
    // Nothing was made by a refusal.
    const listed = (await (await call(`/api/runs/${parent.run.id}/forks`)).json()) as { forks: unknown[] };
    expect(listed.forks).toEqual([]);
    await stop(parent.run.id);
  }, 60_000);

  it('refuses to fork a verification run, which has no agent to resume', async () => {
    const solved = await createRun({ model: 'baseline', endLevel: 0 });
    await waitForStatus(solved.id, 'completed', 30_000);
    const verify = await postJson(`/api/runs/${solved.id}/verify`, {});
    expect(verify.status).toBe(201);
    const replay = (await verify.json()) as RunSummary;
    const refused = await fork(replay.id, { seq: 1 });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      'a verification run re-plays another run',
    );
  }, 60_000);
});
