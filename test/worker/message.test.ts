// Issue 30: a person messages a running agent. Against workerd and the real proxy playing the practice
// range: the message is stored once, read once at the agent's next turn (in the model's prompt; the
// baseline runs the command it names in backticks), and neither lost nor read again across restarts.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const stubOf = (id: string) => env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
const unread = (id: string) =>
  runInDurableObject(stubOf(id), (_i: RunSession, state) =>
    state.storage.sql.exec<{ seq: number }>('SELECT seq FROM inbox').toArray(),
  );
/** Restarts the run's object: the next request makes a new instance from its storage. */
const restart = async (id: string) => {
  await runInDurableObject(stubOf(id), (_i: RunSession, state) => state.abort('restart for the test')).catch(
    () => undefined,
  );
};
/** The text of every model request the fake OpenAI endpoint got that holds `marker`. */
const promptsWith = async (marker: string) =>
  ((await (await fetch(`${env.TEST_OPENAI_URL}/__requests`)).json()) as unknown[])
    .map((r) => JSON.stringify(r))
    .filter((r) => r.includes(marker));

describe('message a running agent', () => {
  it('is read once at the next model turn, in its prompt, without pausing the run', async () => {
    // fake-model (the real proxy, a fake OpenAI endpoint) runs a new command every turn and never solves.
    const run = await createRun({ model: 'fake-model', budget: 100, maxRetries: 10, endLevel: 0, finalAttempt: false });
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'command').length).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 50,
    });
    const text = 'the password is in `readme`, marker-41';
    const sent = await postJson(`/api/runs/${run.id}/actions`, { action: 'message', text });
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { status: string }).status).toBe('running');
    await vi.waitFor(async () => expect(await promptsWith('marker-41')).not.toEqual([]), {
      timeout: 20_000,
      interval: 50,
    });
    // The read is stored with the step that made the model call; a stop before that step ends would cut it, and
    // the message would rightly stay unread. So the stop waits for the stored read.
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'message_read')).not.toEqual([]), {
      timeout: 20_000,
      interval: 50,
    });
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const events = await eventsOf(run.id);
    const messages = ofType(events, 'message_sent');
    expect(messages).toEqual([expect.objectContaining({ level: 0, text, by: 'an API client' })]);
    const reads = ofType(events, 'message_read');
    expect(reads).toEqual([expect.objectContaining({ level: 0, messageSeq: messages[0]?.seq })]);
    expect(reads[0]?.seq).toBeGreaterThan(messages[0]?.seq ?? Infinity);
    // The model's request carries it as a person's hint; no pause came of it (the run went on until the stop).
    expect((await promptsWith('marker-41'))[0]).toContain(`(hint from a person) ${text}`);
    expect(ofType(events, 'user_action_required')).toEqual([]);
    expect(await unread(run.id)).toEqual([]);
  }, 60_000);

  it('waits in a paused run across a restart, is read once on resume, and a restart after reading repeats nothing', async () => {
    const run = await createRun({ model: 'baseline', endLevel: 6, paceMs: 300 });
    // Paused before its first command is stored, so the baseline's first move is the message's command.
    await waitForStatus(run.id, 'running', 20_000);
    expect((await postJson(`/api/runs/${run.id}/actions`, { action: 'pause' })).status).toBe(200);
    await waitForStatus(run.id, 'paused_for_user_action');
    const sent = await postJson(`/api/runs/${run.id}/actions`, { action: 'message', text: 'try `echo marker-42`' });
    expect(sent.status).toBe(200);
    const [message] = ofType(await eventsOf(run.id), 'message_sent');
    expect(await unread(run.id)).toEqual([{ seq: message?.seq }]);
    await restart(run.id);
    expect(await unread(run.id)).toEqual([{ seq: message?.seq }]);
    expect((await postJson(`/api/runs/${run.id}/actions`, { action: 'resume' })).status).toBe(200);
    await vi.waitFor(
      async () => expect(ofType(await eventsOf(run.id), 'command').map((e) => e.command)).toContain('echo marker-42'),
      { timeout: 20_000, interval: 50 },
    );
    await restart(run.id);
    // The restarted object drives the run on; a few more commands later the message is still read once.
    const before = ofType(await eventsOf(run.id), 'command').length;
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'command').length).toBeGreaterThan(before + 1), {
      timeout: 20_000,
      interval: 50,
    });
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const events = await eventsOf(run.id);
    expect(ofType(events, 'message_read')).toEqual([expect.objectContaining({ messageSeq: message?.seq })]);
    expect(ofType(events, 'message_sent')).toHaveLength(1);
    expect(await unread(run.id)).toEqual([]);
  }, 60_000);

  it('takes a message over the WebSocket, stored at once and kept unread while the run is paused', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const client = await connect(`/api/runs/${run.id}/ws`);
    client.send({ type: 'user_action', action: 'message', text: '' });
    let reply = await client.next();
    while (reply.type !== 'error') reply = await client.next();
    expect(reply).toMatchObject({ code: 'invalid_message', message: expect.stringMatching(/text/) });
    client.send({ type: 'user_action', action: 'message', text: 'over the socket' });
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'message_sent')).toHaveLength(1), {
      timeout: 5_000,
      interval: 25,
    });
    const [message] = ofType(await eventsOf(run.id), 'message_sent');
    expect(message).toMatchObject({ text: 'over the socket', by: 'an API client' });
    expect(await unread(run.id)).toEqual([{ seq: message?.seq }]);
    expect((await call(`/api/runs/${run.id}`).then((r) => r.json())) as { status: string }).toMatchObject({
      status: 'paused_for_user_action',
    });
    client.ws.close(1000, 'done');
  });

  it('refuses an empty or oversized message, and one to a run that has ended', async () => {
    const run = await createRun({ model: 'script-pause' });
    const empty = await postJson(`/api/runs/${run.id}/actions`, { action: 'message', text: '  ' });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toMatch(/text.*must not be empty/);
    const long = await postJson(`/api/runs/${run.id}/actions`, { action: 'message', text: 'x'.repeat(2001) });
    expect(long.status).toBe(400);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    const late = await postJson(`/api/runs/${run.id}/actions`, { action: 'message', text: 'too late' });
    expect(late.status).toBe(409);
    expect(await late.text()).toMatch(/already stopped/);
  });
});
