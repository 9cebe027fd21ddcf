// The run socket client talks back (issue 30): `send` puts a client message on the socket open now and
// says false when there is none, and `onMessage` hears every valid message, the terminal's included,
// in socket order, before the fold (which leaves the terminal's messages out of the view).
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { ServerMessage } from '../../schema/protocol.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import { SOCKET_RUN_ID, socketRunLog } from '../support/socket-run-log.ts';

let server: WebSocketServer | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

describe('RunSocketClient.send and onMessage', () => {
  it('sends on the open socket, refuses when none is open, and hears the terminal’s messages in order', async () => {
    const { events, snapshot } = socketRunLog(5);
    const received: unknown[] = [];
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    server.on('connection', (ws) => {
      ws.on('message', (data) => received.push(JSON.parse(String(data))));
      const send = (m: ServerMessage) => ws.send(JSON.stringify(m));
      send({ type: 'welcome', protocolVersion: 1, runId: SOCKET_RUN_ID });
      send({ type: 'snapshot', ...snapshot });
      send({ type: 'events', events });
      send({ type: 'terminal', open: true, by: 'the web UI', you: true, level: 0, size: { cols: 80, rows: 24 } });
      send({ type: 'error', code: 'not_holder', message: 'only the web UI types in this terminal' });
    });
    await new Promise((resolve) => server!.once('listening', resolve));
    const port = (server.address() as AddressInfo).port;
    const heard: string[] = [];
    const client = new RunSocketClient({
      open: () => new WebSocket(`ws://127.0.0.1:${port}/`),
      onMessage: (m) => heard.push(m.type),
    });
    expect(client.send({ type: 'ping' })).toBe(false);
    client.start();
    await client.waitFor((s) => s.lastSeq === events.length);
    await expect.poll(() => heard.at(-1)).toBe('error');
    expect(heard).toEqual(['welcome', 'snapshot', 'events', 'terminal', 'error']);
    expect(client.view.events).toHaveLength(events.length);

    expect(client.send({ type: 'user_action', action: 'takeover', cols: 100, rows: 30 })).toBe(true);
    expect(client.send({ type: 'terminal_input', data: 'ls\r' })).toBe(true);
    await expect.poll(() => received.length).toBe(2);
    expect(received).toEqual([
      { type: 'user_action', action: 'takeover', cols: 100, rows: 30 },
      { type: 'terminal_input', data: 'ls\r' },
    ]);
    client.close();
    expect(client.send({ type: 'terminal_input', data: 'x' })).toBe(false);
  });
});
