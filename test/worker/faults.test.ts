// Faults a run must survive with nothing lost or doubled: two answers to one pause at the same
// instant (REST and socket), and a client whose socket drops every few events.
import { describe, expect, it } from 'vitest';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { eventsOf } from '../../schema/protocol.ts';
import { call, createRun, postJson, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const allEvents = async (id: string) =>
  ((await (await call(`/api/runs/${id}/events?limit=1000`)).json()) as { events: RunEvent[] }).events;

describe('two answers to one pause at the same instant', () => {
  it('takes exactly one; the other is refused with 409 or an error frame', async () => {
    const ROUNDS = 10;
    const winners = { rest: 0, socket: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const run = await createRun({ model: 'script-pause' });
      await waitForStatus(run.id, 'paused_for_user_action');
      const socket = await connect(`/api/runs/${run.id}/ws`);
      expect((await socket.next()).type).toBe('welcome');
      socket.send({ type: 'hello', since: 1_000_000 });
      expect((await socket.next()).type).toBe('snapshot');
      // Both leave together; which goes first alternates, so each side wins some rounds.
      const answerOnSocket = () => socket.send({ type: 'user_action', action: 'continue', hint: 'from the socket' });
      if (round % 2 === 0) answerOnSocket();
      const pending = postJson(`/api/runs/${run.id}/actions`, { action: 'continue', hint: 'from REST' });
      // REST has one more hop (worker → object); a turn of the event loop lets it arrive first.
      if (round % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 0)).then(answerOnSocket);
      const rest = await pending;
      // The object answers one socket's messages in order: a refusal of the socket's answer, if
      // any, comes before the pong of a ping sent after it.
      socket.send({ type: 'ping' });
      const frames: ServerMessage[] = [];
      for (let message = await socket.next(); message.type !== 'pong'; message = await socket.next())
        frames.push(message);
      const refusedOnSocket = frames.some((m) => m.type === 'error' && m.code === 'conflict');
      expect(rest.status === 200).toBe(refusedOnSocket);
      if (rest.status === 200) winners.rest += 1;
      else {
        expect(rest.status).toBe(409);
        winners.socket += 1;
      }
      await waitForStatus(run.id, 'completed');
      const resolved = (await allEvents(run.id)).filter((e) => e.type === 'user_action_resolved');
      expect(resolved).toHaveLength(1);
      expect(resolved[0]).toMatchObject({ hint: rest.status === 200 ? 'from REST' : 'from the socket' });
      socket.ws.close(1000, 'done');
    }
    console.log(
      `double answer: ${ROUNDS} rounds, REST won ${winners.rest}, socket won ${winners.socket}, both won 0, lost 0`,
    );
  });
});

describe('a socket dropped every few events', () => {
  it('still gets every event once, in order, by reconnecting with since', async () => {
    const run = await createRun({ maxRetries: 1 });
    const seen: RunEvent[] = [];
    let reconnects = 0;
    for (let done = false; !done; reconnects++) {
      const socket = await connect(`/api/runs/${run.id}/ws?since=${seen.at(-1)?.seq ?? 0}`);
      // Take up to five events, then drop the socket without a goodbye.
      for (let taken = 0; taken < 5 && !done; ) {
        const message = await socket.next().catch(() => null);
        if (message === null) break; // nothing new for 2 s: reconnect and ask again
        for (const event of eventsOf(message)) {
          if (event.seq <= (seen.at(-1)?.seq ?? 0)) continue;
          seen.push(event);
          taken += 1;
          if (event.type === 'user_action_required') done = true;
        }
      }
      socket.ws.close(1011, 'dropped');
    }
    const log = await allEvents(run.id);
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    expect(seen).toEqual(log.slice(0, seen.length));
    expect(reconnects).toBeGreaterThan(20);
    console.log(`dropped sockets: ${reconnects} reconnects, ${seen.length} events, lost 0, repeated 0`);
  });
});
