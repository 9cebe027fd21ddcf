// A WebSocket through the worker to the run's Durable Object: welcome, snapshot, replay after
// `since`, live broadcast to every client, and clear errors for bad messages.
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { eventsOf } from '../../schema/protocol.ts';
import { call, createRun, postJson } from './http.ts';
import { connect } from './socket-client.ts';

describe('run WebSocket', () => {
  it('sends the protocol version first, then a snapshot and the history on hello', async () => {
    const run = await createRun({ maxRetries: 2 });
    const client = await connect(`/api/runs/${run.id}/ws`);
    expect(await client.next()).toEqual({ type: 'welcome', protocolVersion: 1, runId: run.id });
    client.send({ type: 'hello', since: 0 });
    const snapshot = await client.next();
    expect(snapshot).toMatchObject({
      type: 'snapshot',
      lastSeq: 1,
      pendingAction: null,
      run: { id: run.id, status: 'queued' },
    });
    const created = await client.next();
    expect(created).toMatchObject({
      type: 'event',
      event: { seq: 1, type: 'run_created', runId: run.id, config: { maxRetries: 2 } },
    });
  });

  it('answers ping, and answers bad messages with an error without closing', async () => {
    const run = await createRun();
    const client = await connect(`/api/runs/${run.id}/ws`);
    await client.next(); // welcome
    client.send('{not json');
    expect(await client.next()).toMatchObject({ type: 'error', code: 'invalid_json' });
    client.send({ type: 'hello', since: -1 });
    const tooLow = await client.next();
    expect(tooLow).toMatchObject({ type: 'error', code: 'invalid_message' });
    expect(tooLow.type === 'error' && tooLow.message).toMatch(/since/);
    client.send({ type: 'ping', extra: true });
    expect(await client.next()).toMatchObject({ type: 'error', code: 'invalid_message' });
    client.send({ type: 'teleport' });
    expect(await client.next()).toMatchObject({ type: 'error', code: 'invalid_message' });
    client.send({ type: 'ping', pad: 'x'.repeat(70 * 1024) });
    expect(await client.next()).toMatchObject({ type: 'error', code: 'message_too_large' });
    client.send({ type: 'ping' });
    expect(await client.next()).toMatchObject({ type: 'pong' });
  });

  it('refuses an action that does not fit, and broadcasts a stop to every live client', async () => {
    const run = await createRun();
    const a = await connect(`/api/runs/${run.id}/ws?since=1`);
    const b = await connect(`/api/runs/${run.id}/ws?since=1`);
    for (const c of [a, b]) {
      expect((await c.next()).type).toBe('welcome');
      expect((await c.next()).type).toBe('snapshot');
    }
    a.send({ type: 'user_action', action: 'continue', hint: 'look at the readme' });
    const refused = await a.next();
    expect(refused).toMatchObject({ type: 'error', code: 'conflict' });
    a.send({ type: 'stop' });
    for (const c of [a, b]) {
      expect(await c.next()).toMatchObject({
        type: 'event',
        event: { seq: 2, type: 'status_changed', from: 'queued', to: 'stopped' },
      });
      expect(await c.next()).toMatchObject({
        type: 'event',
        event: { seq: 3, type: 'run_complete', status: 'stopped' },
      });
    }
  });

  it('replays exactly the events after `since` to a reconnecting client', async () => {
    const run = await createRun();
    const first = await connect(`/api/runs/${run.id}/ws`);
    await first.next();
    first.send({ type: 'stop' });
    // A socket that has not said hello is not live yet, so the stop reaches it only through replay.
    const later = await connect(`/api/runs/${run.id}/ws?since=2`);
    expect((await later.next()).type).toBe('welcome');
    expect(await later.next()).toMatchObject({ type: 'snapshot', lastSeq: 3, run: { status: 'stopped' } });
    expect(await later.next()).toMatchObject({ type: 'event', event: { seq: 3, type: 'run_complete' } });
    later.send({ type: 'ping' });
    expect((await later.next()).type).toBe('pong');
  });

  it('replays the history as one batch message, in order, with no gaps', async () => {
    const run = await createRun();
    const stopped = await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    expect(stopped.status).toBe(200);
    const replayed = await connect(`/api/runs/${run.id}/ws?since=0`);
    expect((await replayed.next()).type).toBe('welcome');
    expect(await replayed.next()).toMatchObject({ type: 'snapshot', lastSeq: 3 });
    const batch = await replayed.next();
    expect(batch.type).toBe('events');
    expect(eventsOf(batch).map((e) => [e.seq, e.type])).toEqual([
      [1, 'run_created'],
      [2, 'status_changed'],
      [3, 'run_complete'],
    ]);
  });

  it('sends the steps that came in one chunk of the proxy stream as one message, and a later chunk on its own', async () => {
    const run = await createRun({ model: 'script-chunks' });
    const client = await connect(`/api/runs/${run.id}/ws?since=0`);
    expect((await client.next()).type).toBe('welcome');
    expect((await client.next()).type).toBe('snapshot');
    // The socket is live; now the scripted proxy may speak (its call may not have begun yet).
    await vi.waitFor(
      async () =>
        expect((await fetch(`${env.PROXY_URL}/__release?runId=${run.id}`, { method: 'POST' })).status).toBe(200),
      { timeout: 5_000, interval: 20 },
    );
    const messages: ServerMessage[] = [];
    while (!messages.some((m) => eventsOf(m).some((e) => e.type === 'user_action_required')))
      messages.push(await client.next());
    const thoughts = messages
      .map((m) => eventsOf(m).flatMap((e: RunEvent) => (e.type === 'thinking' ? [e.text] : [])))
      .filter((t) => t.length > 0);
    expect(thoughts).toEqual([['step 1', 'step 2'], ['step 3']]);
    // In order and without gaps across the messages.
    const seqs = messages.flatMap(eventsOf).map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
  });

  it('answers 404 for a socket to an unknown run', async () => {
    const response = await call('/api/runs/run_0000000000000000000000000/ws', { headers: { Upgrade: 'websocket' } });
    expect(response.status).toBe(404);
  });
});
