// Issue 30: a person takes a run's terminal. Against workerd and the real proxy playing the practice
// range: a running agent pauses after its node for the takeover, the terminal is a real PTY login whose
// bytes are stored as events, one socket types while the others watch, handback resumes the agent with
// a note (or with the password the session proved), and a restart ends the terminal, the run paused.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { serverMessageSchema } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { Board } from '../../schema/board.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, createRun, eventsOf, ofType, postJson, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const screenOf = (events: RunEvent[]) =>
  ofType(events, 'terminal_output')
    .map((e) => atob(e.data))
    .join('');
const stubOf = (id: string) => env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));

/** A socket that keeps every message, for waiting on one that matches. */
async function watcher(id: string, client?: string) {
  const socket = await connect(`/api/runs/${id}/ws?since=0${client ? `&client=${client}` : ''}`);
  // Its own listener: every message, however long the test waits between them.
  const seen: ServerMessage[] = [];
  socket.ws.addEventListener('message', (e) => seen.push(serverMessageSchema.parse(JSON.parse(e.data as string))));
  const waitFor = async <T extends ServerMessage>(match: (m: ServerMessage) => m is T, timeout = 15_000) => {
    let found: T | undefined;
    await vi.waitFor(
      () => {
        found = seen.find(match);
        expect(found).toBeDefined();
      },
      { timeout, interval: 25 },
    );
    return found as T;
  };
  return { ...socket, seen, waitFor };
}
type Terminal = Extract<ServerMessage, { type: 'terminal' }>;
type ErrorFrame = Extract<ServerMessage, { type: 'error' }>;
const terminalOpen = (m: ServerMessage): m is Terminal => m.type === 'terminal' && m.open;
const errorWith =
  (code: string) =>
  (m: ServerMessage): m is ErrorFrame =>
    m.type === 'error' && m.code === code;

describe('the run terminal', () => {
  it('pauses a running agent after its node, relays a real PTY, lets one socket type, and hands back with a note', async () => {
    // fake-model (the real proxy, a fake OpenAI endpoint) runs a new command every turn and never solves.
    const run = await createRun({ model: 'fake-model', budget: 100, maxRetries: 10, endLevel: 0, finalAttempt: false });
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'command').length).toBeGreaterThan(0), {
      timeout: 20_000,
      interval: 50,
    });
    const holder = await watcher(run.id, 'web');
    const other = await watcher(run.id, 'cli');
    holder.send({ type: 'user_action', action: 'takeover', cols: 100, rows: 30 });
    const opened = await holder.waitFor(terminalOpen);
    expect(opened).toMatchObject({ open: true, by: 'the web UI', you: true, level: 0, size: { cols: 100, rows: 30 } });
    expect(await other.waitFor(terminalOpen)).toMatchObject({ by: 'the web UI', you: false });
    const paused = (await (await call(`/api/runs/${run.id}`)).json()) as RunSummary;
    expect(paused.status).toBe('paused_for_user_action');

    // Only the holder types; the other socket and REST are refused.
    other.send({ type: 'terminal_input', data: 'echo not-mine\n' });
    expect((await other.waitFor(errorWith('not_holder'))).message).toMatch(/held by the web UI/);
    other.send({ type: 'user_action', action: 'takeover' });
    expect((await other.waitFor(errorWith('terminal_held'))).message).toMatch(/held by the web UI/);
    expect((await postJson(`/api/runs/${run.id}/actions`, { action: 'takeover' })).status).toBe(409);

    holder.send({ type: 'terminal_input', data: 'echo "hi-$((6*7))"\n' });
    await vi.waitFor(async () => expect(screenOf(await eventsOf(run.id))).toContain('hi-42'), {
      timeout: 15_000,
      interval: 50,
    });
    holder.send({ type: 'terminal_resize', cols: 120, rows: 40 });

    holder.send({ type: 'user_action', action: 'handback' });
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'takeover_ended')).toHaveLength(1), {
      timeout: 10_000,
      interval: 50,
    });
    const events = await eventsOf(run.id);
    expect(screenOf(events)).not.toContain('not-mine');
    expect(ofType(events, 'takeover_started')).toEqual([
      expect.objectContaining({ level: 0, by: 'the web UI', cols: 100, rows: 30 }),
    ]);
    expect(ofType(events, 'takeover_ended')[0]).toMatchObject({ reason: 'handback', by: 'the web UI' });
    const pause = ofType(events, 'user_action_required').at(-1);
    expect(pause).toMatchObject({ reason: 'takeover', level: 0 });
    const answer = ofType(events, 'user_action_resolved').at(-1);
    expect(answer).toMatchObject({ action: 'continue', by: 'the web UI' });
    expect(answer?.hint).toMatch(/A person took the terminal at level 0 .*hi-42/s);
    await waitForStatus(run.id, 'running', 15_000);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 90_000);

  it('completes the level as solved by the person when the session proved the next password', async () => {
    const run = await createRun({ model: 'fake-model', budget: 100, maxRetries: 10, endLevel: 1, finalAttempt: false });
    await waitForStatus(run.id, 'running', 20_000);
    const holder = await watcher(run.id, 'cli');
    holder.send({ type: 'user_action', action: 'takeover' });
    await holder.waitFor(terminalOpen, 30_000);
    holder.send({ type: 'terminal_input', data: 'cat readme\n' });
    await vi.waitFor(async () => expect(screenOf(await eventsOf(run.id))).toContain('password you are looking for'), {
      timeout: 15_000,
      interval: 50,
    });
    // At once: the handback waits for the proxy, which is still trying the word it saw as bandit1's login.
    holder.send({ type: 'user_action', action: 'handback' });
    await vi.waitFor(
      async () =>
        expect(ofType(await eventsOf(run.id), 'level_complete')).toEqual([
          expect.objectContaining({ level: 0, solvedBy: 'person' }),
        ]),
      { timeout: 20_000, interval: 50 },
    );
    const events = await eventsOf(run.id);
    expect(ofType(events, 'takeover_ended')[0]).toMatchObject({ reason: 'handback', provedLevel: 0 });
    expect(ofType(events, 'user_action_resolved').at(-1)).toMatchObject({ action: 'password', by: 'the CLI' });
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 90_000);

  it("proves the level from a person's own pause too, when the shell is left with exit right after the password shows", async () => {
    const run = await createRun({ model: 'fake-model', budget: 100, maxRetries: 10, endLevel: 1, finalAttempt: false });
    await waitForStatus(run.id, 'running', 20_000);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'pause' });
    // A pause the graph did not ask for is let go and asked again, so the handback has a question to answer.
    const holder = await watcher(run.id, 'web');
    holder.send({ type: 'user_action', action: 'takeover' });
    await holder.waitFor(terminalOpen, 30_000);
    expect(ofType(await eventsOf(run.id), 'user_action_required').at(-1)).toMatchObject({ reason: 'takeover' });
    holder.send({ type: 'terminal_input', data: 'cat readme\n' });
    await vi.waitFor(async () => expect(screenOf(await eventsOf(run.id))).toContain('password you are looking for'), {
      timeout: 15_000,
      interval: 50,
    });
    // At once, while the proxy still tries the word as bandit1's login.
    holder.send({ type: 'terminal_input', data: 'exit\n' });
    await vi.waitFor(
      async () =>
        expect(ofType(await eventsOf(run.id), 'level_complete')).toEqual([
          expect.objectContaining({ level: 0, solvedBy: 'person' }),
        ]),
      { timeout: 20_000, interval: 50 },
    );
    expect(ofType(await eventsOf(run.id), 'takeover_ended')).toEqual([
      expect.objectContaining({ reason: 'closed', provedLevel: 0, commands: 2, message: 'the shell ended (exit 0)' }),
    ]);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 90_000);

  it('ends the terminal on a restart and keeps the run paused', async () => {
    const run = await createRun({ model: 'fake-model', budget: 100, maxRetries: 10, endLevel: 0, finalAttempt: false });
    await waitForStatus(run.id, 'running', 20_000);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'pause' });
    // Two sockets race for the terminal: exactly one holds it, the other is told who does.
    const [first, second] = await Promise.all([watcher(run.id), watcher(run.id, 'cli')]);
    first.send({ type: 'user_action', action: 'takeover' });
    second.send({ type: 'user_action', action: 'takeover' });
    const [a, b] = await Promise.all([first.waitFor(terminalOpen, 30_000), second.waitFor(terminalOpen, 30_000)]);
    expect([a.you, b.you].sort()).toEqual([false, true]);
    const loser = a.you ? second : first;
    expect((await loser.waitFor(errorWith('terminal_held'))).message).toMatch(/held by/);
    expect(ofType(await eventsOf(run.id), 'takeover_started')).toHaveLength(1);
    const holderName = a.you ? 'an API client' : 'the CLI';
    await runInDurableObject(stubOf(run.id), (_i: RunSession, state) => state.abort('restart for the test')).catch(
      () => undefined,
    );
    // The next request makes a new instance from storage: it finds the terminal gone and says so.
    const after = (await (await call(`/api/runs/${run.id}`)).json()) as RunSummary;
    expect(after.status).toBe('paused_for_user_action');
    const ended = ofType(await eventsOf(run.id), 'takeover_ended');
    expect(ended).toEqual([expect.objectContaining({ reason: 'restart', by: holderName })]);
    expect(ended[0]?.message).toMatch(/stays paused/);
    // A new socket sees nobody holding it, and can take it again.
    const again = await watcher(run.id);
    again.send({ type: 'user_action', action: 'takeover' });
    expect(await again.waitFor(terminalOpen, 30_000)).toMatchObject({ you: true });
    again.send({ type: 'user_action', action: 'handback' });
    await waitForStatus(run.id, 'running', 15_000);
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 90_000);

  it("plays a human run: a level the terminal proves completes as the person's, and the next level opens for them", async () => {
    const run = await createRun({ model: 'human', endLevel: 1 });
    await vi.waitFor(
      async () =>
        expect(ofType(await eventsOf(run.id), 'user_action_required').at(-1)).toMatchObject({
          reason: 'human_turn',
          level: 0,
        }),
      { timeout: 20_000, interval: 50 },
    );
    const player = await watcher(run.id, 'web');
    player.send({ type: 'user_action', action: 'takeover' });
    await player.waitFor(terminalOpen, 30_000);
    player.send({ type: 'terminal_input', data: 'cat readme\n' });
    // The proxy proves the word it saw; the object answers the turn with it and opens level 1's terminal.
    await vi.waitFor(
      async () => expect(ofType(await eventsOf(run.id), 'takeover_started').map((e) => e.level)).toEqual([0, 1]),
      { timeout: 30_000, interval: 50 },
    );
    const events = await eventsOf(run.id);
    expect(ofType(events, 'level_complete')).toEqual([expect.objectContaining({ level: 0, solvedBy: 'person' })]);
    expect(ofType(events, 'takeover_ended')).toEqual([
      expect.objectContaining({ level: 0, reason: 'solved', provedLevel: 0, commands: 1 }),
    ]);
    expect(ofType(events, 'llm_call')).toEqual([]);
    expect(player.seen.filter(terminalOpen).at(-1)).toMatchObject({ level: 1, you: true, by: 'the web UI' });
    player.send({ type: 'terminal_input', data: 'whoami\n' });
    await vi.waitFor(async () => expect(screenOf(await eventsOf(run.id))).toMatch(/bandit1\s/), {
      timeout: 15_000,
      interval: 50,
    });
    // Handing back leaves a human run waiting for its player.
    player.send({ type: 'user_action', action: 'handback' });
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'takeover_ended')).toHaveLength(2), {
      timeout: 10_000,
      interval: 50,
    });
    expect(((await (await call(`/api/runs/${run.id}`)).json()) as RunSummary).status).toBe('paused_for_user_action');
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
    // The board has a row for the person, with the level they proved and the line they typed for it.
    await vi.waitFor(
      async () => {
        const board = (await (await call('/api/board')).json()) as Board;
        expect(board.models.find((m) => m.model === 'human')).toMatchObject({ levelsSolved: expect.any(Number) });
        const cell = board.cells.find((c) => c.model === 'human' && c.level === 0);
        expect(cell?.outcomes.solved_with_password).toBeGreaterThanOrEqual(1);
      },
      { timeout: 15_000, interval: 100 },
    );
  }, 90_000);

  it('closes a terminal nobody types in after TERMINAL_IDLE_MS (8 s here), the run still paused', async () => {
    const run = await createRun({ model: 'fake-model', budget: 100, maxRetries: 10, endLevel: 0, finalAttempt: false });
    await waitForStatus(run.id, 'running', 20_000);
    const holder = await watcher(run.id);
    holder.send({ type: 'user_action', action: 'takeover' });
    await holder.waitFor(terminalOpen, 30_000);
    await vi.waitFor(async () => expect(ofType(await eventsOf(run.id), 'takeover_ended')).toHaveLength(1), {
      timeout: 30_000,
      interval: 200,
    });
    const [ended] = ofType(await eventsOf(run.id), 'takeover_ended');
    expect(ended).toMatchObject({ reason: 'idle', message: 'nobody typed for 8 s (TERMINAL_IDLE_MS)' });
    expect(ended?.durationMs).toBeGreaterThanOrEqual(8_000);
    await vi.waitFor(() =>
      expect(holder.seen.filter((m) => m.type === 'terminal').at(-1)).toMatchObject({ open: false, by: null }),
    );
    expect(((await (await call(`/api/runs/${run.id}`)).json()) as RunSummary).status).toBe('paused_for_user_action');
    await postJson(`/api/runs/${run.id}/actions`, { action: 'stop' });
  }, 90_000);
});
