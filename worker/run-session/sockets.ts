// WebSocket plumbing for RunSession: parsing client messages without ever throwing, sending
// server messages, and the per-socket state kept in the hibernation attachment.
import { describeIssues } from '../../schema/issues.ts';
import type { ClientMessage, ServerMessage } from '../../schema/protocol.ts';
import { clientMessageSchema, MAX_CLIENT_MESSAGE_BYTES } from '../../schema/protocol.ts';
import type { RunAction } from '../../schema/run.ts';
import type { Role } from '../../schema/access.ts';
import { canAct } from '../../schema/access.ts';

/**
 * A socket is live once its replay is done; live sockets get new events as they are stored. `by` names
 * its client (the `client` query parameter), `seat` is the tag of the terminal it holds (terminal-seat.ts),
 * `role` its opener's (set by the worker; a viewer's or a share link's socket may watch but never act).
 */
export type SocketState = {
  live: boolean;
  by?: string;
  seat?: string;
  role?: Role;
  /** The stored token (a role token or a share link) it was opened with, closed when that is revoked. */
  tokenId?: string;
  /** When that token expires (ms since epoch): the socket is closed at the first broadcast after then. */
  expiresAt?: number | null;
};

export type Parsed = { ok: true; message: ClientMessage } | { ok: false; code: string; message: string };

/** Never throws: a bad message becomes an error answer for that socket alone. */
export function parseClientMessage(raw: string | ArrayBuffer): Parsed {
  if (typeof raw !== 'string')
    return { ok: false, code: 'invalid_message', message: 'send JSON text frames, not binary' };
  if (new TextEncoder().encode(raw).byteLength > MAX_CLIENT_MESSAGE_BYTES) {
    return {
      ok: false,
      code: 'message_too_large',
      message: `messages are limited to ${MAX_CLIENT_MESSAGE_BYTES} bytes`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'invalid_json', message: 'the message is not valid JSON; see docs/protocol.md' };
  }
  const parsed = clientMessageSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, code: 'invalid_message', message: `the message is invalid: ${describeIssues(parsed.error)}` };
  return { ok: true, message: parsed.data };
}

export function stripType(msg: Extract<ClientMessage, { type: 'user_action' }>): RunAction {
  const { type: _type, ...action } = msg;
  return action;
}

export function send(ws: WebSocket, message: ServerMessage): void {
  sendText(ws, JSON.stringify(message));
}

/** Sends an already serialised server message. */
export function sendText(ws: WebSocket, text: string): void {
  try {
    ws.send(text);
  } catch {
    // The socket closed under us; its close handler cleans up.
  }
}

/** An `events` message (or `event` for one) from events already serialised, without parsing them again. */
export function eventsMessage(jsonEvents: readonly string[]): string {
  return jsonEvents.length === 1
    ? `{"type":"event","event":${jsonEvents[0]}}`
    : `{"type":"events","events":[${jsonEvents.join(',')}]}`;
}

export function getState(ws: WebSocket): SocketState {
  return (ws.deserializeAttachment() as SocketState | null) ?? { live: false };
}

export function setState(ws: WebSocket, state: SocketState): void {
  ws.serializeAttachment(state);
}

/** Why this socket may not send this message (it acts and the socket is read-only), or null when it may. */
export function readOnlyRefusal(ws: WebSocket, message: ClientMessage): string | null {
  if (message.type === 'hello' || message.type === 'ping') return null;
  // A socket without a role was opened before roles existed, when every opener had full access.
  const role = getState(ws).role ?? 'admin';
  if (canAct(role)) return null;
  const who = role === 'share' ? 'a share link' : 'a viewer token';
  return `this socket was opened with ${who} (role ${role}): it may watch the run but not act (${message.type}); use an operator token to act`;
}
