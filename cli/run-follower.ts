// Follows one run over its WebSocket: the snapshot, then every event in order, reconnecting with
// `since` after a dropped socket, so nothing is shown twice and nothing is missed. The fold is
// schema/run-view-state.ts, the one the web UI uses too, so both read a run the same way.
import type { RunEvent, ServerMessage } from '../schema/protocol.ts';
import { eventsOf, serverMessageSchema } from '../schema/protocol.ts';
import { applyEvents, applyLive, applySnapshot, initialViewState } from '../schema/run-view-state.ts';
import type { RunViewState } from '../schema/run-view-state.ts';
import type { ApiClient } from './api-client.ts';

export type FollowHandlers = {
  /** Each stored event once, in seq order. */
  onEvent?: (event: RunEvent, state: RunViewState) => void;
  /** Any change: a snapshot, events, live text, the queue place. */
  onState?: (state: RunViewState) => void;
  onLive?: (delta: Extract<ServerMessage, { type: 'thinking_delta' }>) => void;
  /** A dropped socket, and the wait before the next try. */
  onReconnect?: (waitMs: number) => void;
};

const MAX_BACKOFF_MS = 5_000;

export class RunFollower {
  private readonly client: ApiClient;
  private readonly runId: string;
  private readonly handlers: FollowHandlers;
  private state: RunViewState = initialViewState;
  private socket: WebSocket | null = null;
  private closed = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private waiters: { until: (s: RunViewState) => boolean; resolve: (s: RunViewState) => void }[] = [];
  /** The log's last seq when the latest snapshot was taken: the state is current once it is reached. */
  private snapshotSeq = Number.POSITIVE_INFINITY;

  constructor(client: ApiClient, runId: string, handlers: FollowHandlers = {}) {
    this.client = client;
    this.runId = runId;
    this.handlers = handlers;
  }

  get view(): RunViewState {
    return this.state;
  }

  start(): void {
    this.connect();
  }

  /** Resolves with the state once `until` holds, checked after every change once the replay has caught up. */
  waitFor(until: (s: RunViewState) => boolean): Promise<RunViewState> {
    if (this.current() && until(this.state)) return Promise.resolve(this.state);
    return new Promise((resolve) => this.waiters.push({ until, resolve }));
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, 'done');
  }

  private connect(): void {
    const ws = this.client.socket(this.runId, this.state.lastSeq);
    this.socket = ws;
    ws.onmessage = (message) => {
      let json: unknown;
      try {
        json = JSON.parse(String(message.data));
      } catch {
        return;
      }
      const parsed = serverMessageSchema.safeParse(json);
      if (!parsed.success) return; // A newer server's message: ignored, as the protocol asks.
      this.handle(parsed.data, ws);
    };
    ws.onclose = () => {
      if (this.closed || this.socket !== ws) return;
      const wait = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.failures);
      this.failures += 1;
      this.handlers.onReconnect?.(wait);
      this.timer = setTimeout(() => this.connect(), wait);
    };
    ws.onerror = () => undefined;
  }

  private handle(msg: ServerMessage, ws: WebSocket): void {
    if (msg.type === 'snapshot') {
      this.failures = 0;
      this.snapshotSeq = msg.lastSeq;
      this.update(applySnapshot(this.state, msg));
    } else if (msg.type === 'thinking_delta') {
      this.handlers.onLive?.(msg);
      this.update(applyLive(this.state, msg));
    } else if (msg.type === 'queue') {
      this.update({ ...this.state, queuePosition: msg.position });
    } else {
      const events = eventsOf(msg);
      if (events.length === 0) return;
      const before = this.state.lastSeq;
      const { state, gap } = applyEvents(this.state, events);
      for (const event of state.events.filter((e) => e.seq > before)) this.handlers.onEvent?.(event, state);
      this.update(state);
      // Missed events: start again from what we hold; the replay fills the hole.
      if (gap) ws.close(4000, 'gap in the event log');
    }
  }

  /** A snapshot has come and every event up to it has been folded: the run as it is now. */
  private current(): boolean {
    return this.state.run !== null && this.state.lastSeq >= this.snapshotSeq;
  }

  private update(state: RunViewState): void {
    this.state = state;
    this.handlers.onState?.(state);
    if (!this.current()) return;
    const ready = this.waiters.filter((w) => w.until(state));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(state);
  }
}
