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

/**
 * Connects to the run's socket from `since`; resolves once the snapshot has arrived. Messages are
 * kept as text with their arrival time and parsed when `events` is read, except those that may end
 * the wait (`mayEnd`, by default every one): fifty watchers share this process with what is
 * measured, and parsing every copy as it came would show up as latency.
 */
export function watchRun(
  baseUrl: string,
  runId: string,
  since: number,
  until: (event: RunEvent) => boolean,
  mayEnd: (text: string) => boolean = () => true,
): Promise<Watcher> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/runs/${runId}/ws?since=${since}`);
  const parsed: RunEvent[] = [];
  const parsedAt: number[] = [];
  const raw: { text: string; at: number }[] = [];
  // Not schema-checked: the worker's messages are checked by the tests.
  const take = (text: string, at: number): ServerMessage => {
    const message = JSON.parse(text) as ServerMessage;
    for (const event of eventsOf(message)) {
      parsed.push(event);
      parsedAt.push(at);
    }
    return message;
  };
  const settle = () => {
    for (const m of raw.splice(0)) take(m.text, m.at);
  };
  let reach: (event: RunEvent) => void = () => {};
  let fail: (err: Error) => void = () => {};
  const reached = new Promise<RunEvent>((resolve, reject) => {
    reach = resolve;
    fail = reject;
  });
  return new Promise((resolve, reject) => {
    let connectedAt = 0;
    const watcher: Watcher = {
      get events() {
        settle();
        return parsed;
      },
      get arrivals() {
        settle();
        return parsedAt;
      },
      get connectedAt() {
        return connectedAt;
      },
      reached,
      close: () => ws.close(),
    };
    ws.onmessage = (m) => {
      const at = wallNow();
      const text = String(m.data);
      if (connectedAt !== 0 && !mayEnd(text)) return void raw.push({ text, at });
      settle();
      const from = parsed.length;
      const message = take(text, at);
      if (message.type === 'snapshot') {
        connectedAt = at;
        resolve(watcher);
      }
      const hit = parsed.slice(from).find(until);
      if (hit) reach(hit);
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
