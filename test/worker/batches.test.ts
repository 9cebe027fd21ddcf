// Batches, the run queue and streamed thinking, through the worker, the real proxy and two fake
// OpenAI-compatible endpoints that stream (test/support/worker-global-setup.ts): "alpha/*" and
// "slow/slow" on one, "beta/solver" on the other.
import { describe, expect, it, vi } from 'vitest';
import { batchSchema, boardSchema } from '../../schema/board.ts';
import type { ServerMessage } from '../../schema/protocol.ts';
import { eventsOf } from '../../schema/protocol.ts';
import { queueStatusSchema } from '../../schema/queue.ts';
import type { RunSummary } from '../../schema/run.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const readRun = async (id: string) => (await (await call(`/api/runs/${id}`)).json()) as RunSummary;

// The waits inside allow a minute on a loaded machine; the default 5 s test timeout would cut them short.
describe('batches', () => {
  it('runs 3 models × 2 repeats hands-off, groups them, and the board counts their solves', async () => {
    const models = ['alpha/solver', 'beta/solver', 'baseline'];
    const response = await postJson('/api/batches', {
      models,
      startLevel: 0,
      endLevel: 1,
      repeats: 2,
      maxRetries: 1,
      budget: 4,
      finalAttempt: false,
    });
    expect(response.status).toBe(201);
    const made = batchSchema.parse(await response.json());
    expect(made.runs).toHaveLength(6);
    expect(made.config.onPause).toBe('stop');
    // Side by side: repeat 1 of every model before repeat 2 of any.
    expect(made.runs.map((r) => r.config.model)).toEqual([...models, ...models]);

    let batch = made;
    await vi.waitFor(
      async () => {
        batch = batchSchema.parse(await (await call(`/api/batches/${made.id}`)).json());
        expect(batch.progress.done).toBe(6);
      },
      { timeout: 60_000, interval: 100 },
    );
    // Level 0 is solved by reading the readme; level 1 ("-") is beyond these players, so each run
    // stops where it would have paused, without waiting for anyone.
    for (const run of batch.runs) {
      expect(run.config.batchId).toBe(made.id);
      expect(run.levelsSolved).toBeGreaterThanOrEqual(1);
    }
    const board = boardSchema.parse(await (await call(`/api/board?batch=${made.id}`)).json());
    expect(board.models.map((m) => m.model).sort()).toEqual([...models].sort());
    for (const model of models) {
      const row = board.models.find((m) => m.model === model)!;
      expect(row.runs).toBe(2);
      expect(board.cells.find((c) => c.model === model && c.level === 0)).toMatchObject({
        runs: 2,
        alone: 2,
        helped: 0,
        notSolved: 0,
      });
    }
    // beta/solver has a price: its cost per level solved is its cost over its solves.
    const beta = board.models.find((m) => m.model === 'beta/solver')!;
    expect(beta.costUsd).toBeGreaterThan(0);
    expect(beta.costPerLevelSolved).toBeCloseTo(beta.costUsd / beta.levelsSolved, 10);

    const list = (await (await call('/api/batches')).json()) as { batches: { id: string; runs: number }[] };
    expect(list.batches.find((b) => b.id === made.id)).toMatchObject({ runs: 6 });
  }, 90_000);

  it('refuses a batch whole when one of its models is not offered, and makes no run', async () => {
    const before = (await (await call('/api/runs?limit=100')).json()) as { runs: unknown[] };
    const response = await postJson('/api/batches', { models: ['alpha/solver', 'nobody/model'], endLevel: 0 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /"nobody\/model" is not offered/,
    );
    const after = (await (await call('/api/runs?limit=100')).json()) as { runs: unknown[] };
    expect(after.runs.length).toBe(before.runs.length);
    const twice = await postJson('/api/batches', { models: ['baseline', 'baseline'] });
    expect(twice.status).toBe(400);
    // A human run waits for its player at every level: a hands-off batch would never end.
    const human = await postJson('/api/batches', { models: ['baseline', 'human'] });
    expect(human.status).toBe(400);
    expect(((await human.json()) as { error: { message: string } }).error.message).toMatch(
      /"human" is played by a person.*not in a batch/,
    );
  });
});

describe('run queue', () => {
  it('never runs more than a provider allows, starts the line in order, and lets a queued run be stopped', async () => {
    // "slow" allows 2 at once; each of its runs takes a few slow model calls.
    const runs: RunSummary[] = [];
    for (let i = 0; i < 6; i++)
      runs.push(await createRun({ model: 'slow/slow', endLevel: 0, maxRetries: 1, budget: 4, finalAttempt: false }));
    const stopped = runs[5]!;
    let most = 0;
    let sawLine = false;
    let stopSent = false;
    await vi.waitFor(
      async () => {
        const queue = queueStatusSchema.parse(await (await call('/api/queue')).json());
        const ours = queue.running.filter((m) => m.provider === 'slow');
        most = Math.max(most, ours.length);
        const waiting = queue.waiting.filter((m) => m.provider === 'slow');
        if (waiting.length > 0) {
          sawLine = true;
          // Places are 1, 2, … in the order the runs were made.
          const order = runs.map((r) => r.id).filter((id) => waiting.some((w) => w.runId === id));
          expect(waiting.map((w) => w.runId)).toEqual(order);
        }
        if (!stopSent && waiting.some((w) => w.runId === stopped.id)) {
          // Its watchers see its place: in the snapshot, or in a queue message soon after.
          const socket = await connect(`/api/runs/${stopped.id}/ws?since=0`);
          let place: number | null = null;
          for (let i = 0; i < 50 && place === null; i++) {
            const message = await socket.next().catch(() => null);
            if (message?.type === 'snapshot') place = message.queuePosition ?? null;
            if (message?.type === 'queue') place = message.position;
          }
          expect(place).toBeGreaterThanOrEqual(1);
          socket.ws.close();
          stopSent = true;
          const answer = await postJson(`/api/runs/${stopped.id}/actions`, { action: 'stop' });
          expect(answer.status).toBe(200);
        }
        const statuses = await Promise.all(runs.map((r) => readRun(r.id).then((x) => x.status)));
        expect(statuses.every((s) => s === 'completed' || s === 'stopped')).toBe(true);
      },
      { timeout: 90_000, interval: 30 },
    );
    expect(sawLine).toBe(true);
    expect(stopSent).toBe(true);
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
    const finished = await Promise.all(runs.map((r) => readRun(r.id)));
    expect(finished[5]!.status).toBe('stopped');
    expect(finished[5]!.startedAt).toBeNull();
    // Started in the order they were made. The queue grants freed slots in line order, but each run's
    // own object stamps its start, so two runs granted in one pass can be stamped a millisecond apart
    // either way (CI saw 1 ms). A run that jumped the line would be ahead by at least one slow model
    // call (400 ms): a slot frees only when a run ends.
    const started = finished.slice(0, 5).map((r) => Date.parse(r.startedAt!));
    const steps = started.slice(1).map((t, i) => t - started[i]!);
    expect(
      steps.every((step) => step > -50),
      `start times ${started.join(', ')}`,
    ).toBe(true);
  }, 90_000);
});

describe('streamed thinking', () => {
  it('reaches a socket as thinking_delta before the call ends; a client joining mid-call catches up', async () => {
    const run = await createRun({ model: 'alpha/thinker', endLevel: 0, maxRetries: 1, budget: 4, finalAttempt: false });
    const client = await connect(`/api/runs/${run.id}/ws?since=0`);
    const seen: ServerMessage[] = [];
    let lateSnapshot: ServerMessage | null = null;
    for (;;) {
      const message = await client.next();
      seen.push(message);
      if (message.type === 'thinking_delta' && lateSnapshot === null) {
        const late = await connect(`/api/runs/${run.id}/ws?since=0`);
        await late.next(); // welcome
        lateSnapshot = await late.next();
      }
      if (eventsOf(message).some((e) => e.type === 'llm_call')) break;
    }
    const deltas = seen.filter(
      (m): m is Extract<ServerMessage, { type: 'thinking_delta' }> => m.type === 'thinking_delta',
    );
    const text = 'Thinking it over, one piece at a time, before acting.';
    // Pieces of 6 characters every 120 ms, coalesced to at most one line per 100 ms: several deltas,
    // all before the call's own events, and together the whole text.
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((d) => d.text).join('')).toBe(text);
    const firstCall = seen.findIndex((m) => eventsOf(m).some((e) => e.type === 'llm_call'));
    expect(seen.findIndex((m) => m.type === 'thinking_delta')).toBeLessThan(firstCall);
    const stored = seen.flatMap(eventsOf);
    expect(stored.find((e) => e.type === 'thinking')).toMatchObject({ text });
    const llmCall = stored.find((e) => e.type === 'llm_call');
    expect(llmCall && llmCall.type === 'llm_call' && llmCall.ttftMs).toBeGreaterThanOrEqual(0);
    // The late client's snapshot holds the text written so far.
    expect(lateSnapshot).toMatchObject({ type: 'snapshot', live: { level: 0, stage: 'plan' } });
    const liveText = lateSnapshot?.type === 'snapshot' ? (lateSnapshot.live?.text ?? '') : '';
    expect(liveText.length).toBeGreaterThan(0);
    expect(text.startsWith(liveText)).toBe(true);
    // The deltas are live only: the stored log has no trace of them.
    const log = (await (await call(`/api/runs/${run.id}/events?since=0`)).json()) as { events: { type: string }[] };
    expect(log.events.some((e) => e.type === 'thinking_delta')).toBe(false);
    await waitForStatus(run.id, 'completed', 30_000);
  }, 90_000);
});
