// RunSession: one Durable Object per run. It owns the run's truth (config, status, event log) and
// its WebSocket clients, and mirrors the run row to D1 for the run list.
import { DurableObject } from 'cloudflare:workers';
import { describeIssues } from '../schema/issues.ts';
import type { ClientMessage, RunEvent, RunEventBody, ServerMessage } from '../schema/protocol.ts';
import { clientMessageSchema, MAX_CLIENT_MESSAGE_BYTES, PROTOCOL_VERSION } from '../schema/protocol.ts';
import type { RunAction, RunConfig, RunStatus, RunSummary } from '../schema/run.ts';
import { upsertRun } from './db.ts';
import { refuseAction } from './run-actions.ts';
import { RunStore } from './run-store.ts';

/** Events are replayed to a connecting client in pages of this size. */
const REPLAY_PAGE = 500;

type SocketState = { live: boolean };

/** The outcome of an action: the run after it, or why it was refused (HTTP 409). */
export type ActionResult = { ok: true; run: RunSummary } | { ok: false; code: 'conflict' | 'not_found'; message: string };

export class RunSession extends DurableObject<Env> {
  private readonly store: RunStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new RunStore(ctx.storage.sql);
  }

  /** Health: proves the object is reachable and its storage answers. */
  async ping(): Promise<{ ok: boolean; storage: string }> {
    const one = this.ctx.storage.sql.exec<{ one: number }>('SELECT 1 AS one').one().one;
    return { ok: one === 1, storage: one === 1 ? 'ok' : 'unexpected answer' };
  }

  /** Creates the run held by this object; null if it already holds one. */
  async create(runId: string, config: RunConfig): Promise<RunSummary | null> {
    const now = Date.now();
    if (!this.store.create(runId, config, now)) return null;
    this.record({ type: 'run_created', config }, now);
    return this.mirror();
  }

  /** The run, or null when this object holds none. */
  async summary(): Promise<RunSummary | null> {
    return this.store.summary();
  }

  /** Applies a person's action from REST or a socket, checked against the run's state. */
  async act(action: RunAction, by: string): Promise<ActionResult> {
    const run = this.store.summary();
    if (!run) return { ok: false, code: 'not_found', message: 'no such run' };
    const refusal = refuseAction(action.action, run.status, this.store.pendingAction());
    if (refusal) return { ok: false, code: 'conflict', message: refusal };
    const now = Date.now();
    switch (action.action) {
      case 'continue':
        this.resolvePause({ action: 'continue', by, ...(action.hint ? { hint: action.hint } : {}) }, now);
        this.transition(run.status, 'running', now, 'continued by a person');
        break;
      case 'password':
        this.resolvePause({ action: 'password', by }, now);
        this.transition(run.status, 'running', now, 'password supplied by a person');
        break;
      case 'pause':
        this.store.update({ pendingAction: this.pauseFor(run) }, now);
        this.transition(run.status, 'paused_for_user_action', now, 'paused by a person');
        this.record({ type: 'user_action_required', ...this.pauseFor(run) }, now);
        break;
      case 'resume':
        this.store.update({ pendingAction: null }, now);
        this.transition(run.status, 'running', now, 'resumed by a person');
        break;
      case 'stop':
        if (run.status === 'paused_for_user_action') this.resolvePause({ action: 'stop', by }, now);
        this.transition(run.status, 'stopped', now, `stopped by ${by}`);
        this.store.update({ endedAt: now }, now);
        this.record({ type: 'run_complete', status: 'stopped', levelsSolved: run.levelsSolved, reason: `stopped by ${by}` }, now);
        break;
    }
    return { ok: true, run: await this.mirror() };
  }

  /** WebSocket upgrade from the worker; `?since=N` replays at once without waiting for hello. */
  override async fetch(request: Request): Promise<Response> {
    const run = this.store.summary();
    if (!run) return Response.json({ error: { code: 'not_found', message: 'no such run' } }, { status: 404 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server);
    setState(server, { live: false });
    send(server, { type: 'welcome', protocolVersion: PROTOCOL_VERSION, runId: run.id });
    const since = new URL(request.url).searchParams.get('since');
    if (since !== null) this.replay(server, Number.parseInt(since, 10) || 0);
    const protocol = request.headers.get('Sec-WebSocket-Protocol');
    // Browsers send the token as a subprotocol; the handshake must echo one back to succeed.
    const headers: HeadersInit = protocol ? { 'Sec-WebSocket-Protocol': protocol.split(',')[0]!.trim() } : {};
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    const parsed = parseClientMessage(message);
    if (!parsed.ok) return send(ws, { type: 'error', code: parsed.code, message: parsed.message });
    const msg = parsed.message;
    switch (msg.type) {
      case 'hello':
        return this.replay(ws, msg.since ?? 0);
      case 'ping':
        return send(ws, { type: 'pong', ts: new Date().toISOString() });
      case 'user_action':
      case 'pause':
      case 'resume':
      case 'stop': {
        const action: RunAction = msg.type === 'user_action' ? stripType(msg) : { action: msg.type };
        const result = await this.act(action, 'socket');
        if (!result.ok) send(ws, { type: 'error', code: result.code, message: result.message });
        return;
      }
    }
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // 1005/1006 carry no close frame and cannot be echoed back.
    if (code !== 1005 && code !== 1006) ws.close(code, 'closing');
  }

  /** Sends the snapshot, then every event after `since`, then marks the socket live. */
  private replay(ws: WebSocket, since: number): void {
    const run = this.store.summary();
    if (!run) return;
    send(ws, { type: 'snapshot', run, lastSeq: this.store.lastSeq(), pendingAction: this.store.pendingAction() });
    for (let after = since; ; ) {
      const page = this.store.eventsAfter(after, REPLAY_PAGE);
      for (const event of page) send(ws, { type: 'event', event });
      if (page.length < REPLAY_PAGE) break;
      after = page[page.length - 1]!.seq;
    }
    setState(ws, { live: true });
  }

  /** Stores an event, then sends it to every live client: stored before broadcast, always. */
  private record(body: RunEventBody, now: number): RunEvent {
    const run = this.store.summary();
    if (!run) throw new Error('record() before create()');
    const event = this.store.append(run.id, body, now);
    for (const ws of this.ctx.getWebSockets()) {
      if (getState(ws).live) send(ws, { type: 'event', event });
    }
    return event;
  }

  private transition(from: RunStatus, to: RunStatus, now: number, reason: string): void {
    this.store.update({ status: to }, now);
    this.record({ type: 'status_changed', from, to, reason }, now);
  }

  private resolvePause(resolved: { action: 'continue' | 'password' | 'stop'; by: string; hint?: string }, now: number): void {
    this.store.update({ pendingAction: null }, now);
    this.record({ type: 'user_action_resolved', ...resolved }, now);
  }

  private pauseFor(run: RunSummary) {
    return {
      reason: 'user_requested' as const,
      level: run.currentLevel,
      retryCount: 0,
      maxRetries: run.config.maxRetries,
      lastError: run.lastError,
      lessons: [],
    };
  }

  /** Copies the run row to D1 and returns it. */
  private async mirror(): Promise<RunSummary> {
    const run = this.store.summary();
    if (!run) throw new Error('mirror() before create()');
    await upsertRun(this.env, run);
    return run;
  }
}

type Parsed = { ok: true; message: ClientMessage } | { ok: false; code: string; message: string };

/** Never throws: a bad message becomes an error answer for that socket alone. */
function parseClientMessage(raw: string | ArrayBuffer): Parsed {
  if (typeof raw !== 'string') return { ok: false, code: 'invalid_message', message: 'send JSON text frames, not binary' };
  if (new TextEncoder().encode(raw).byteLength > MAX_CLIENT_MESSAGE_BYTES) {
    return { ok: false, code: 'message_too_large', message: `messages are limited to ${MAX_CLIENT_MESSAGE_BYTES} bytes` };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'invalid_json', message: 'the message is not valid JSON; see docs/protocol.md' };
  }
  const parsed = clientMessageSchema.safeParse(json);
  if (!parsed.success) return { ok: false, code: 'invalid_message', message: `the message is invalid: ${describeIssues(parsed.error)}` };
  return { ok: true, message: parsed.data };
}

function stripType(msg: Extract<ClientMessage, { type: 'user_action' }>): RunAction {
  const { type: _type, ...action } = msg;
  return action;
}

function send(ws: WebSocket, message: ServerMessage): void {
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // The socket closed under us; its close handler cleans up.
  }
}

function getState(ws: WebSocket): SocketState {
  return (ws.deserializeAttachment() as SocketState | null) ?? { live: false };
}

function setState(ws: WebSocket, state: SocketState): void {
  ws.serializeAttachment(state);
}
