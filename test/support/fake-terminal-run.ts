// A run socket on loopback that plays the Durable Object's side of the shared terminal (issue 30) for
// the CLI's unit tests: a snapshot, then the test's script answers each client message (takeover,
// terminal_input, handback) with `terminal` messages, events (terminal_output) or error frames, as docs/protocol.md says.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { WebSocket as ServerSocket } from 'ws';
import type { ClientMessage, PendingAction, RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { clientMessageSchema, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { runConfigSchema } from '../../schema/run.ts';

/** The run the fake serves. */
export const TERMINAL_RUN_ID = 'run_0mwttwzkcgphqalgdterminal1';

/** Distributes the union, so each event's own fields are required and the envelope is not. */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event as a test writes it: the envelope (seq, ts, runId) is added by the server. */
export type EventBody = Without<RunEvent, 'seq' | 'ts' | 'runId'>;

/** What a script can do with the one connected client. */
export type FakeTerminalRun = {
  url: string;
  /** Every valid message the clients sent, in order. */
  readonly received: ClientMessage[];
  send(message: ServerMessage): void;
  /** Appends events to the log (seq from 1) and sends them. */
  emit(...events: EventBody[]): void;
  /** Cuts the client's connection at once, as a stack that goes away does. */
  drop(): void;
  close(): Promise<void>;
};

/** A run summary for the fake's snapshot. */
export function terminalRunSummary(model: string, status: RunSummary['status']): RunSummary {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  return {
    id: TERMINAL_RUN_ID,
    config: runConfigSchema.parse({ model, target: 'practice', startLevel: 0, endLevel: 2 }),
    status,
    currentLevel: 0,
    levelsSolved: 0,
    createdAt: at,
    updatedAt: at,
    startedAt: at,
    endedAt: null,
    lastError: null,
  };
}

/** A pause for the fake's snapshot. */
export const pauseAt = (reason: PendingAction['reason'], level = 0): PendingAction => ({
  reason,
  level,
  retryCount: 0,
  maxRetries: 3,
  lastError: null,
  lessons: [],
});

/**
 * Starts the fake: each connection gets the snapshot of `run` (paused at `pending`), then `onMessage`
 * answers what the client sends. Messages that fail the protocol's schema throw in the test.
 */
export async function startFakeTerminalRun(
  run: RunSummary,
  pending: PendingAction | null,
  onMessage: (message: ClientMessage, fake: FakeTerminalRun) => void,
): Promise<FakeTerminalRun> {
  // GET /api/runs/:id answers the summary, as the worker does; everything else is a 404.
  const http = createServer((req, res) => {
    const found = req.method === 'GET' && req.url === `/api/runs/${run.id}`;
    res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(found ? run : { error: { code: 'not_found', message: 'no such run' } }));
  });
  const server = new WebSocketServer({
    server: http,
    handleProtocols: (protocols) => (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const log: RunEvent[] = [];
  let client: ServerSocket | null = null;
  const fake: FakeTerminalRun = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    received: [],
    send: (message) => client?.send(JSON.stringify(message)),
    emit: (...bodies) => {
      const first = log.length + 1;
      const events = bodies.map(
        (body, i) => ({ ...body, seq: first + i, ts: new Date().toISOString(), runId: run.id }) as RunEvent,
      );
      log.push(...events);
      fake.send({ type: 'events', events });
    },
    drop: () => client?.terminate(),
    close: () =>
      new Promise((resolve) => {
        for (const c of server.clients) c.terminate();
        server.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  server.on('connection', (ws) => {
    client = ws;
    ws.send(JSON.stringify({ type: 'welcome', protocolVersion: 1, runId: run.id } satisfies ServerMessage));
    ws.send(
      JSON.stringify({ type: 'snapshot', run, lastSeq: log.length, pendingAction: pending } satisfies ServerMessage),
    );
    if (log.length > 0) ws.send(JSON.stringify({ type: 'events', events: log } satisfies ServerMessage));
    ws.on('message', (data) => {
      const message = clientMessageSchema.parse(JSON.parse(String(data)));
      fake.received.push(message);
      onMessage(message, fake);
    });
  });
  return fake;
}
