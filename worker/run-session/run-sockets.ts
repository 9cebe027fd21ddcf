// A run's WebSocket clients: the handshake, the replay that makes a socket live, and the broadcast
// of stored events to every live socket. The Durable Object's hooks call in here.
import { PROTOCOL_VERSION, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import type { ClientMessage, LiveText, RunEvent, ServerMessage } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { RunSpend } from '../../schema/budget.ts';
import type { RunStore } from './run-store.ts';
import type { TerminalState } from '../../schema/terminal.ts';
import { answeredBy } from '../../schema/answered-by.ts';
import { errorBody } from '../errors.ts';
import { eventsMessage, getState, readOnlyRefusal, send, sendText, setState } from './sockets.ts';
import { ACCESS_HEADER, socketAccess } from '../access/context.ts';
import { redactedJsonText } from '../access/reader-redaction.ts';
import { canAct } from '../../schema/access.ts';
import { tokenRevoked } from '../access/token-store.ts';
import { errorText } from '../error-text.ts';

/** The messages that act on the run, checked against a revoked token before they are applied. */
const RUN_ACTIONS: ReadonlySet<string> = new Set(['user_action', 'pause', 'resume', 'stop']);

/** Events are replayed to a connecting client in messages of at most this many events… */
const REPLAY_PAGE = 1000;
/** …and about this many bytes, well under any WebSocket frame limit. */
export const REPLAY_PAGE_BYTES = 512 * 1024;

/** Whether this socket's opener may only read (a viewer, a share link): it sees the run redacted. */
function readsRedacted(ws: WebSocket): boolean {
  return !canAct(getState(ws).role ?? 'admin');
}

/** The sockets of one run's Durable Object. */
export class RunSockets {
  private readonly ctx: DurableObjectState;
  private readonly store: RunStore;
  /** The model call being written now, so a client that connects mid-call catches up. Memory only. */
  private liveText: LiveText | null = null;
  /** The run's place in the queue, as the scheduler last said. */
  private position: number | null = null;
  /**
   * Sockets known to be live, so a broadcast need not read every socket's attachment (a structured
   * clone each) per step. Memory only: after the object wakes from hibernation the attachment says.
   */
  private readonly liveSockets = new WeakSet<WebSocket>();
  /** When each socket opened with an expiring token must close (memory; after a wake the attachment says). */
  private readonly expiries = new WeakMap<WebSocket, number>();
  /**
   * Events stored but not yet sent: those of every step in one chunk of the proxy's stream go out as
   * one message. Memory only; they are in storage already, and anything else sent flushes them first.
   */
  private held: RunEvent[] = [];
  /** How the run's terminal looks to one socket (terminal-seat.ts); set by the session. */
  terminalView: ((ws: WebSocket) => TerminalState) | null = null;
  /** The run's caps and spent figures for the snapshot (run-budget.ts); set with the parts. */
  spendView: ((run: RunSummary) => RunSpend) | null = null;

  private readonly env: Env;

  constructor(ctx: DurableObjectState, store: RunStore, env: Env) {
    this.ctx = ctx;
    this.store = store;
    this.env = env;
  }

  /**
   * Accepts an upgrade: welcome first, and the replay at once when the URL carries `?since=N`. Past
   * `maxSockets` open sockets on this run, the answer is 429 before any upgrade.
   */
  accept(request: Request, run: RunSummary, maxSockets: number): Response {
    if (this.ctx.getWebSockets().length >= maxSockets) {
      const message = `run ${run.id} already has ${maxSockets} open sockets (MAX_SOCKETS_PER_RUN); close one, or read GET /api/runs/${run.id}/events instead`;
      return Response.json(errorBody('too_many_sockets', message), { status: 429, headers: { 'Retry-After': '5' } });
    }
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    // The client names itself in the URL (browsers cannot set headers on a socket): a terminal's holder is named so.
    const access = socketAccess(request.headers.get(ACCESS_HEADER));
    setState(server, { live: false, by: answeredBy(new URL(request.url).searchParams.get('client')), ...access });
    if (access.expiresAt) this.expiries.set(server, access.expiresAt);
    send(server, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, runId: run.id });
    const since = new URL(request.url).searchParams.get('since');
    if (since !== null) this.replay(server, Number.parseInt(since, 10) || 0);
    // A browser offering subprotocols needs one picked; the fixed name, never its token.<value>.
    const offered =
      request.headers
        .get('Sec-WebSocket-Protocol')
        ?.split(',')
        .map((p) => p.trim()) ?? [];
    const headers: HeadersInit = offered.includes(WS_SUBPROTOCOL) ? { 'Sec-WebSocket-Protocol': WS_SUBPROTOCOL } : {};
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  /** Sends the snapshot, then every event after `since`, then marks the socket live. */
  replay(ws: WebSocket, since: number): void {
    const run = this.store.summary();
    if (!run) return;
    // Held events are stored, so the replay has them: the sockets already live get them first.
    this.flush();
    // A reader who may not act gets every message redacted (worker/access/reader-redaction.ts).
    const shown = readsRedacted(ws) ? redactedJsonText : (text: string) => text;
    sendText(
      ws,
      shown(
        JSON.stringify({
          type: 'snapshot',
          run: this.spendView ? { ...run, spend: this.spendView(run) } : run,
          lastSeq: this.store.lastSeq(),
          pendingAction: this.store.pendingAction(),
          // Streamed text comes in pieces a password could be cut across: a redacted reader waits for the stored step.
          live: shown === redactedJsonText ? null : this.liveText,
          queuePosition: this.position,
        } satisfies ServerMessage),
      ),
    );
    // Pages until one comes back empty: a page may end early on its byte limit.
    for (let after = since; ; ) {
      const page = this.store.eventTextAfter(after, REPLAY_PAGE, REPLAY_PAGE_BYTES);
      if (page.length === 0) break;
      sendText(ws, shown(eventsMessage(page.map((row) => row.json))));
      after = page[page.length - 1]!.seq;
    }
    setState(ws, { ...getState(ws), live: true });
    this.liveSockets.add(ws);
    const terminal = this.terminalView?.(ws);
    if (terminal?.by) send(ws, { type: 'terminal', ...terminal });
  }

  /** The terminal's holder or state changed: each live socket gets how it looks to it. */
  terminalChanged(view: (ws: WebSocket) => TerminalState): void {
    this.flush();
    for (const ws of this.ctx.getWebSockets()) if (this.isLive(ws)) send(ws, { type: 'terminal', ...view(ws) });
  }

  /** More of the model's text: kept for late joiners and sent to every live socket, never stored. */
  live(level: number, stage: LiveText['stage'], text: string): void {
    const same = this.liveText && this.liveText.level === level && this.liveText.stage === stage;
    this.liveText = same ? { level, stage, text: this.liveText!.text + text } : { level, stage, text };
    this.sendAll({ type: 'thinking_delta', level, stage, text }, { redactedReaders: false });
  }

  /** The call's text is stored now (its step was committed); nothing is being written. */
  clearLive(): void {
    this.liveText = null;
  }

  /** The run's place in the queue; null when it left the queue. */
  queuePosition(position: number | null): void {
    if (position === this.position) return;
    this.position = position;
    this.sendAll({ type: 'queue', position });
  }

  private sendAll(message: ServerMessage, options: { redactedReaders?: boolean } = {}): void {
    this.flush();
    this.sendToLive(JSON.stringify(message), options);
  }

  /** Sends stored events to every live socket now (after any held ones), as one message. */
  broadcast(events: readonly RunEvent[]): void {
    this.hold(events);
    this.flush();
  }

  /**
   * Keeps stored events to send with the next flush. The run's session holds each step's events while
   * it reads a chunk of the proxy's stream and flushes at the chunk's end: when the object falls
   * behind (many watchers), a chunk holds several steps and each socket gets one message for all of
   * them instead of one per step; when it keeps up, a chunk is one step and nothing waits.
   */
  hold(events: readonly RunEvent[]): void {
    this.held.push(...events);
  }

  /** Sends the held events to every live socket, as one message made from their stored text. */
  flush(): void {
    if (this.held.length === 0) return;
    const events = this.held;
    this.held = [];
    this.sendToLive(eventsMessage(events.map((event) => this.store.jsonOf(event))));
  }

  /** Sends to every live socket; a reader who may not act gets it redacted, made once, or (redactedReaders false) not at all. */
  private sendToLive(text: string, { redactedReaders = true }: { redactedReaders?: boolean } = {}): void {
    const now = Date.now();
    let redacted: string | null = null;
    for (const ws of this.ctx.getWebSockets()) {
      if (!this.isLive(ws)) continue;
      const expiresAt = this.expiries.get(ws);
      if (expiresAt !== undefined && expiresAt <= now) this.end(ws, 'token_expired', 'the share link or token expired');
      else if (!readsRedacted(ws)) sendText(ws, text);
      else if (redactedReaders) sendText(ws, (redacted ??= redactedJsonText(text)));
    }
  }

  /**
   * Whether this socket may not send this message, answered here: a socket whose token expired is closed
   * (it had no event since that would have closed it), a read-only one is told it may not act, and a run
   * action (answer, pause, resume, stop) from a stored token's socket is checked in D1 first: a revoked
   * token's socket is closed, and when D1 does not answer nothing is done. Typing on a held terminal is
   * not checked per keystroke.
   */
  async refused(ws: WebSocket, message: ClientMessage): Promise<boolean> {
    const { expiresAt, tokenId } = getState(ws);
    if (expiresAt && expiresAt <= Date.now()) {
      this.end(ws, 'token_expired', 'the share link or token expired');
      return true;
    }
    const readOnly = readOnlyRefusal(ws, message);
    if (readOnly) send(ws, { type: 'error', code: 'forbidden', message: readOnly });
    if (readOnly || !tokenId || !RUN_ACTIONS.has(message.type)) return readOnly !== null;
    try {
      if (!(await tokenRevoked(this.env, tokenId))) return false;
      this.end(ws, 'token_revoked', 'the token was revoked');
    } catch (err) {
      const why = `the token could not be checked (D1 did not answer: ${errorText(err)}); nothing was done, try again`;
      send(ws, { type: 'error', code: 'd1_unavailable', message: why });
    }
    return true;
  }

  /** Closes every socket opened with this stored token (it was revoked); returns how many. */
  closeOpenedWith(tokenId: string): number {
    let closed = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (getState(ws).tokenId !== tokenId) continue;
      this.end(ws, 'token_revoked', 'the share link or token was revoked');
      closed++;
    }
    return closed;
  }

  /** Says why, then closes the socket (1008: policy); its client cannot reconnect with that token. */
  private end(ws: WebSocket, code: string, why: string): void {
    send(ws, { type: 'error', code, message: `${why}; this socket is closed` });
    this.liveSockets.delete(ws);
    try {
      ws.close(1008, why);
    } catch {
      // Already closing.
    }
  }

  private isLive(ws: WebSocket): boolean {
    if (this.liveSockets.has(ws)) return true;
    const state = getState(ws);
    if (!state.live) return false;
    this.liveSockets.add(ws);
    if (state.expiresAt) this.expiries.set(ws, state.expiresAt);
    return true;
  }
}
