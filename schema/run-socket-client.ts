// The one client of a run's WebSocket, for the web hook and the CLI alike: it opens with `since` = the
// last seq it holds, checks every message with zod, folds with schema/run-view-state.ts, closes on a gap
// and reconnects with one backoff, so no event is shown twice or skipped. Standard WebSocket and timers only.
import type { ClientMessage, RunEvent, ServerMessage } from './protocol.ts';
import { eventsOf, serverMessageSchema } from './protocol.ts';
import { reconnectDelay } from './reconnect-backoff.ts';
import type { RunViewState } from './run-view-state.ts';
import { applyEvents, applyLive, applySnapshot, initialViewState } from './run-view-state.ts';

/** 'connecting' until the first snapshot, 'live' from a snapshot on, 'reconnecting' after a drop. */
export type ConnectionState = 'connecting' | 'live' | 'reconnecting';

/** More of the text of the model call being written (live only, never in the log). */
export type ThinkingDelta = Extract<ServerMessage, { type: 'thinking_delta' }>;

/** The timers the client waits with; tests pass their own clock. */
export type SocketTimers = {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

/** What the client is told to do and whom it tells. Every handler is optional. */
export type RunSocketOptions = {
  /** Opens a socket asking for the events after `since`, with the token as a subprotocol (`socketProtocols`). */
  open: (since: number) => WebSocket;
  /** Each stored event once, in seq order, with the state that includes it. */
  onEvent?: (event: RunEvent, state: RunViewState) => void;
  /** Any change of the view: a snapshot, events, live text, the queue place. */
  onState?: (state: RunViewState) => void;
  onLive?: (delta: ThinkingDelta) => void;
  onConnection?: (connection: ConnectionState) => void;
  /** A line for a person (a socket error, a frame that is not JSON); null when a snapshot clears it. */
  onNotice?: (notice: string | null) => void;
  /** A dropped socket, and the wait before the next try (schema/reconnect-backoff.ts). */
  onReconnect?: (waitMs: number) => void;
  /** Every valid message as it comes, before it is folded (the terminal's messages are not folded). */
  onMessage?: (message: ServerMessage) => void;
  timers?: SocketTimers;
};

/** The notice for a frame that is not JSON: shown, and the frame is skipped. */
export const NOT_JSON_NOTICE = 'The server sent a message that is not JSON; ignoring it.';

const globalTimers: SocketTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

type Waiter = { until: (s: RunViewState) => boolean; resolve: (s: RunViewState) => void };

/** Follows one run over its socket until `close()`: the snapshot, then every event once, in order. */
export class RunSocketClient {
  private readonly options: RunSocketOptions;
  private readonly timers: SocketTimers;
  private state: RunViewState = initialViewState;
  private connectionState: ConnectionState = 'connecting';
  private noticeText: string | null = null;
  private socket: WebSocket | null = null;
  private started = false;
  private closed = false;
  /** Drops in a row since the last snapshot: the exponent of the next wait. */
  private failures = 0;
  private timer: unknown;
  private waiters: Waiter[] = [];
  /** The log's last seq when the latest snapshot was taken: the state is current once it is reached. */
  private snapshotSeq = Number.POSITIVE_INFINITY;

  constructor(options: RunSocketOptions) {
    this.options = options;
    this.timers = options.timers ?? globalTimers;
  }

  get view(): RunViewState {
    return this.state;
  }

  get connection(): ConnectionState {
    return this.connectionState;
  }

  get notice(): string | null {
    return this.noticeText;
  }

  /** Opens the first socket (from seq 0); a second call does nothing. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.connect();
  }

  /** Resolves with the state once `until` holds, checked after every change once the replay has caught up. */
  waitFor(until: (s: RunViewState) => boolean): Promise<RunViewState> {
    if (this.current() && until(this.state)) return Promise.resolve(this.state);
    return new Promise((resolve) => this.waiters.push({ until, resolve }));
  }

  /** Sends on the socket open now; false when there is none (the message is not kept for the next one). */
  send(message: ClientMessage): boolean {
    const ws = this.socket;
    if (ws?.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  /** Closes the socket and stops reconnecting; nothing is reported after this. */
  close(reason = 'done'): void {
    this.closed = true;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const ws = this.socket;
    this.socket = null;
    ws?.close(1000, reason);
  }

  private connect(): void {
    this.timer = undefined;
    if (this.closed) return;
    let ws: WebSocket;
    try {
      ws = this.options.open(this.state.lastSeq);
    } catch (error) {
      this.setNotice(`Could not open the run's socket (${String(error)}); trying again.`);
      return this.retry();
    }
    this.socket = ws;
    ws.addEventListener('message', (message) => {
      if (this.socket === ws) this.receive(message.data, ws);
    });
    // Whichever comes first ends this socket: Node's WebSocket sends no close after a failed handshake.
    const ended = () => {
      if (this.socket !== ws) return;
      this.socket = null;
      this.retry();
    };
    ws.addEventListener('close', ended);
    ws.addEventListener('error', ended);
  }

  /** Waits by the policy, then opens again from the last seq held. */
  private retry(): void {
    if (this.closed) return;
    this.setConnection('reconnecting');
    const wait = reconnectDelay(this.failures);
    this.failures += 1;
    this.options.onReconnect?.(wait);
    this.timer = this.timers.setTimeout(() => this.connect(), wait);
  }

  private receive(data: unknown, ws: WebSocket): void {
    let json: unknown;
    try {
      json = JSON.parse(String(data));
    } catch {
      return this.setNotice(NOT_JSON_NOTICE);
    }
    const parsed = serverMessageSchema.safeParse(json);
    if (!parsed.success) return; // A newer server's message type: ignored, as the protocol asks.
    this.options.onMessage?.(parsed.data);
    this.handle(parsed.data, ws);
  }

  private handle(msg: ServerMessage, ws: WebSocket): void {
    if (msg.type === 'snapshot') {
      this.failures = 0;
      this.snapshotSeq = msg.lastSeq;
      this.setConnection('live');
      this.setNotice(null);
      this.update(applySnapshot(this.state, msg));
    } else if (msg.type === 'error') {
      this.setNotice(msg.message);
    } else if (msg.type === 'thinking_delta') {
      this.options.onLive?.(msg);
      this.update(applyLive(this.state, msg));
    } else if (msg.type === 'queue') {
      this.update({ ...this.state, queuePosition: msg.position });
    } else {
      this.take(eventsOf(msg), ws);
    }
  }

  /** Folds a message's events; on a gap the socket is dropped and the replay from what is held fills it. */
  private take(events: RunEvent[], ws: WebSocket): void {
    if (events.length === 0) return;
    const before = this.state.lastSeq;
    // Holding nothing, the log must start at seq 1 (the fold alone would take any first seq).
    const first = events.find((e) => e.seq > before);
    const startsLate = before === 0 && first !== undefined && first.seq !== 1;
    const { state, gap } = startsLate ? { state: this.state, gap: true } : applyEvents(this.state, events);
    if (state !== this.state) {
      // The fold only appends, so the new events are the tail.
      for (const event of state.events.slice(this.state.events.length)) this.options.onEvent?.(event, state);
      this.update(state);
    }
    if (!gap || this.socket !== ws) return;
    this.socket = null;
    ws.close(4000, 'gap in the event log');
    this.retry();
  }

  /** A snapshot has come and every event up to it has been folded: the run as it is now. */
  private current(): boolean {
    return this.state.run !== null && this.state.lastSeq >= this.snapshotSeq;
  }

  private update(state: RunViewState): void {
    this.state = state;
    this.options.onState?.(state);
    if (!this.current()) return;
    const ready = this.waiters.filter((w) => w.until(state));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(state);
  }

  private setConnection(connection: ConnectionState): void {
    if (connection === this.connectionState) return;
    this.connectionState = connection;
    this.options.onConnection?.(connection);
  }

  private setNotice(notice: string | null): void {
    if (notice === this.noticeText) return;
    this.noticeText = notice;
    this.options.onNotice?.(notice);
  }
}
