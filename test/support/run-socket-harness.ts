// What the socket client's tests share: timers that record each wait and fire at once (so backoff is
// checked by its values, never by the wall clock), and a client opened the CLI's way, through ApiClient.
import { ApiClient } from '../../cli/api-client.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { ConnectionState, RunSocketOptions, SocketTimers } from '../../schema/run-socket-client.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import type { ScriptedRunServer } from './scripted-run-server.ts';
import { SOCKET_RUN_ID } from './socket-run-log.ts';

/** The API token of the tests: it must ride as a subprotocol and never appear in a URL. */
export const SOCKET_TOKEN = 'tok-9f3c1e7a52b84d06';

/** Timers whose waits are recorded; with `fire` false a wait never ends until the test calls `runPending`. */
export function recordingTimers(fire = true): { timers: SocketTimers; delays: number[]; runPending(): void } {
  const delays: number[] = [];
  const pending: (() => void)[] = [];
  const timers: SocketTimers = {
    setTimeout: (run, ms) => {
      delays.push(ms);
      if (fire) return setImmediate(run);
      pending.push(run);
      return undefined;
    },
    clearTimeout: (handle) => {
      if (handle) clearImmediate(handle as NodeJS.Immediate);
    },
  };
  const runPending = () => {
    for (const run of pending.splice(0)) run();
  };
  return { timers, delays, runPending };
}

/** A client of SOCKET_RUN_ID on `server`, with what it reported: events, connection states, waits. */
export function followed(
  server: ScriptedRunServer,
  timers: SocketTimers,
  more: Partial<RunSocketOptions> = {},
): { client: RunSocketClient; seen: RunEvent[]; connections: ConnectionState[]; waits: number[] } {
  const api = new ApiClient({ url: server.url.replace(/^ws/, 'http'), token: SOCKET_TOKEN });
  const seen: RunEvent[] = [];
  const connections: ConnectionState[] = [];
  const waits: number[] = [];
  const client = new RunSocketClient({
    open: (since) => api.socket(SOCKET_RUN_ID, since),
    onEvent: (event) => seen.push(event),
    onConnection: (c) => connections.push(c),
    onReconnect: (ms) => waits.push(ms),
    timers,
    ...more,
  });
  client.start();
  return { client, seen, connections, waits };
}
