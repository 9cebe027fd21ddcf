// The one run socket client against a real loopback WebSocket server: the token rides as a subprotocol,
// live messages reach the view, the backoff follows its one policy, junk frames give a notice, a log
// that starts late is a gap, and the module needs nothing but the standard WebSocket and schema/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { socketProtocols, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { RECONNECT_MAX_MS, reconnectDelay } from '../../schema/reconnect-backoff.ts';
import { NOT_JSON_NOTICE } from '../../schema/run-socket-client.ts';
import { followed, recordingTimers, SOCKET_TOKEN } from '../support/run-socket-harness.ts';
import type { ScriptedRunServer, ScriptedSocket } from '../support/scripted-run-server.ts';
import { startScriptedRunServer } from '../support/scripted-run-server.ts';
import { SOCKET_RUN_ID, socketRunLog } from '../support/socket-run-log.ts';

const N = 20;
const { events, snapshot } = socketRunLog(N);
const batch = (list: RunEvent[]): ServerMessage => ({ type: 'events', events: list });
const seqs = (list: RunEvent[]) => list.map((e) => e.seq);
const all = Array.from({ length: N }, (_, i) => i + 1);

/** Welcome, snapshot and every event after `since`, as the worker's replay sends them. */
function serveAll(socket: ScriptedSocket): void {
  socket.send({ type: 'welcome', protocolVersion: 1, runId: SOCKET_RUN_ID });
  socket.send({ type: 'snapshot', ...snapshot });
  if (socket.since < N) socket.send(batch(events.slice(socket.since)));
}

let server: ScriptedRunServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('RunSocketClient', () => {
  it('offers the token as a subprotocol, never in the URL, and asks for the events after what it holds', async () => {
    expect(socketProtocols(null)).toEqual([WS_SUBPROTOCOL]);
    expect(socketProtocols('abc')).toEqual([WS_SUBPROTOCOL, 'token.abc']);
    // The first socket is closed by the server after 5 events: the second must ask for the rest.
    server = await startScriptedRunServer((socket, index) => {
      if (index > 0) return serveAll(socket);
      socket.send({ type: 'snapshot', ...snapshot });
      socket.send(batch(events.slice(0, 5)));
      socket.close(1012);
    });
    const { client, seen } = followed(server, recordingTimers().timers);
    const view = await client.waitFor((s) => s.lastSeq === N);
    client.close();
    expect(seqs(seen)).toEqual(all);
    expect(view.events).toEqual(events);
    expect(server.upgrades.map((u) => u.url)).toEqual([
      `/api/runs/${SOCKET_RUN_ID}/ws?client=cli&since=0`,
      `/api/runs/${SOCKET_RUN_ID}/ws?client=cli&since=5`,
    ]);
    for (const upgrade of server.upgrades) {
      expect(upgrade.url).not.toContain(SOCKET_TOKEN);
      expect(upgrade.protocols).toEqual([WS_SUBPROTOCOL, `token.${SOCKET_TOKEN}`]);
    }
  });

  it('brings queue places and thinking_delta text into the view', async () => {
    server = await startScriptedRunServer((socket) => {
      socket.send({
        type: 'snapshot',
        ...snapshot,
        queuePosition: 3,
        live: { level: 4, stage: 'plan', text: 'Let me' },
      });
      socket.send(batch(events));
      socket.send({ type: 'queue', position: 1 });
      socket.send({ type: 'thinking_delta', level: 4, stage: 'plan', text: ' look' });
      socket.send({ type: 'thinking_delta', level: 4, stage: 'plan', text: ' around' });
    });
    const deltas: string[] = [];
    const { client } = followed(server, recordingTimers().timers, { onLive: (d) => deltas.push(d.text) });
    const view = await client.waitFor((s) => s.live?.text === 'Let me look around');
    client.close();
    expect(view.queuePosition).toBe(1);
    expect(view.live).toEqual({ level: 4, stage: 'plan', text: 'Let me look around', afterSeq: N });
    expect(deltas).toEqual([' look', ' around']);
  });

  it('waits 250 ms doubling to 5 s between failed tries, and a snapshot starts the count again', async () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(reconnectDelay)).toEqual([250, 500, 1000, 2000, 4000, 5000, RECONNECT_MAX_MS]);
    // Upgrades 0-6 and 8-9 are refused; 7 sends a snapshot and closes; 10 serves the run.
    const refused = new Set([0, 1, 2, 3, 4, 5, 6, 8, 9]);
    server = await startScriptedRunServer(
      (socket, index) => {
        if (index === 10) return serveAll(socket);
        socket.send({ type: 'snapshot', ...snapshot });
        socket.close(1012);
      },
      (index) => refused.has(index),
    );
    const { timers, delays } = recordingTimers();
    const { client, connections, waits } = followed(server, timers);
    await client.waitFor((s) => s.lastSeq === N);
    client.close();
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 250, 500, 1000]);
    expect(waits).toEqual(delays);
    expect(connections).toEqual(['reconnecting', 'live', 'reconnecting', 'live']);
    expect(server.upgrades.map((u) => u.refused)).toEqual([...Array(7).fill(true), false, true, true, false]);
  });

  it('shows a notice for a frame that is not JSON, ignores unknown messages, and keeps the socket', async () => {
    server = await startScriptedRunServer((socket) => {
      socket.send({ type: 'snapshot', ...snapshot });
      socket.send(batch(events.slice(0, 7)));
      socket.sendRaw('this is {not json');
      socket.send({ type: 'from_a_newer_server', payload: 1 });
      socket.send({ type: 'events', events: [{ seq: 8, type: 'not_an_event' }] });
      socket.send(batch(events.slice(7)));
    });
    const notices: (string | null)[] = [];
    const { client, seen } = followed(server, recordingTimers().timers, { onNotice: (n) => notices.push(n) });
    await client.waitFor((s) => s.lastSeq === N);
    expect(client.notice).toBe(NOT_JSON_NOTICE);
    expect(client.connection).toBe('live');
    client.close();
    expect(notices).toEqual([NOT_JSON_NOTICE]);
    expect(seqs(seen)).toEqual(all);
    expect(server.upgrades).toHaveLength(1);
  });

  it("shows a socket error's message, and a snapshot clears it", async () => {
    server = await startScriptedRunServer((socket, index) => {
      if (index > 0) return serveAll(socket);
      socket.send({ type: 'snapshot', ...snapshot });
      socket.send({ type: 'error', code: 'conflict', message: 'The run is not paused; nothing to answer.' });
      socket.close(1012);
    });
    const notices: (string | null)[] = [];
    const { client } = followed(server, recordingTimers().timers, { onNotice: (n) => notices.push(n) });
    await client.waitFor((s) => s.lastSeq === N);
    client.close();
    expect(notices).toEqual(['The run is not paused; nothing to answer.', null]);
  });

  it('resolves waitFor only once the replay has reached the snapshot, not at the snapshot', async () => {
    server = await startScriptedRunServer((socket) => {
      socket.send({ type: 'snapshot', ...snapshot });
      setTimeout(() => socket.send(batch(events.slice(0, 10))), 20);
      setTimeout(() => socket.send(batch(events.slice(10))), 40);
    });
    const { client } = followed(server, recordingTimers().timers);
    const view = await client.waitFor((s) => s.run !== null);
    client.close();
    expect(view.lastSeq).toBe(N);
  });

  it('closes with 4000 when the log skips seqs, even from nothing, and the replay fills the hole', async () => {
    const codes: Promise<number | null>[] = [];
    server = await startScriptedRunServer((socket, index) => {
      if (index === 2) return serveAll(socket);
      codes.push(socket.clientClosed);
      socket.send({ type: 'snapshot', ...snapshot });
      // From nothing the log must start at seq 1; later, seq 6 must follow 5.
      if (index === 0) socket.send(batch(events.slice(2)));
      else socket.send(batch([...events.slice(0, 5), ...events.slice(6)]));
    });
    const { client, seen } = followed(server, recordingTimers().timers);
    await client.waitFor((s) => s.lastSeq === N);
    client.close();
    expect(await Promise.all(codes)).toEqual([4000, 4000]);
    expect(seqs(seen)).toEqual(all);
    expect(server.upgrades.map((u) => u.url.split('since=')[1])).toEqual(['0', '0', '5']);
  });

  it('opens nothing more after close(), even when a wait was already set', async () => {
    server = await startScriptedRunServer((socket) => {
      socket.send({ type: 'snapshot', ...snapshot });
      socket.close(1012);
    });
    const { timers, delays, runPending } = recordingTimers(false);
    const { client, connections } = followed(server, timers);
    await new Promise<void>((resolve) => {
      const check = () => (delays.length > 0 ? resolve() : setTimeout(check, 5));
      check();
    });
    client.close();
    runPending();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.upgrades).toHaveLength(1);
    expect(connections).toEqual(['live', 'reconnecting']);
  });

  it('needs only the standard WebSocket, timers and schema/: no React, no Node', () => {
    for (const file of ['run-socket-client.ts', 'reconnect-backoff.ts']) {
      const source = readFileSync(join(import.meta.dirname, '../../schema', file), 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(
        imports.every((path) => path?.startsWith('./')),
        `${file} imports ${imports.join(', ')}`,
      ).toBe(true);
      expect(source).not.toMatch(/\b(process|Buffer|require|window|document|globalThis\.process)\b/);
    }
  });
});
