// A WebSocket client that watches one run for the stack benchmark: it keeps every event with the
// moment it arrived, so delivery latency and replay time can be read off afterwards.
import type { RunEvent, ServerMessage } from '../schema/protocol.ts';
import { eventsOf } from '../schema/protocol.ts';

/** Wall-clock milliseconds with sub-millisecond precision, comparable with another process's Date.now(). */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export type Watcher = {
  events: RunEvent[];
  /** wallNow() at the arrival of events[i]. */
  arrivals: number[];
  /** wallNow() when the snapshot arrived: events whose cause is later than this came live. */
  connectedAt: number;
  /** Resolves with the event for which `until` held. */
  reached: Promise<RunEvent>;
  close: () => void;
};

/** Connects to the run's socket from `since`; resolves once the snapshot has arrived. */
export function watchRun(baseUrl: string, runId: string, since: number, until: (event: RunEvent) => boolean): Promise<Watcher> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/runs/${runId}/ws?since=${since}`);
  const events: RunEvent[] = [];
  const arrivals: number[] = [];
  let reach: (event: RunEvent) => void = () => {};
  let fail: (err: Error) => void = () => {};
  const reached = new Promise<RunEvent>((resolve, reject) => {
    reach = resolve;
    fail = reject;
  });
  return new Promise((resolve, reject) => {
    ws.onmessage = (m) => {
      const at = wallNow();
      // Not schema-checked: fifty watchers share this process with the measurement, and the worker's
      // messages are checked by the tests; here parsing time would show up as latency.
      const message = JSON.parse(String(m.data)) as ServerMessage;
      if (message.type === 'snapshot') resolve({ events, arrivals, connectedAt: at, reached, close: () => ws.close() });
      for (const event of eventsOf(message)) {
        events.push(event);
        arrivals.push(at);
        if (until(event)) reach(event);
      }
    };
    ws.onerror = () => {
      const err = new Error(`the socket for ${runId} failed`);
      reject(err);
      fail(err);
    };
  });
}

/**
 * Proxy → client latency of each `node` event that came live: the proxy stamps a node with its start
 * and duration (ms), which gives the moment it sent the line; the arrival is the client's clock. Both
 * clocks are this machine's, so the figures are good to about a millisecond.
 */
export function nodeLatencies(watcher: Watcher): number[] {
  const latencies: number[] = [];
  watcher.events.forEach((event, i) => {
    if (event.type !== 'node') return;
    const sent = Date.parse(event.startedAt) + event.durationMs;
    if (sent > watcher.connectedAt) latencies.push(watcher.arrivals[i]! - sent);
  });
  return latencies;
}
