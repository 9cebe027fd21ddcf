// What a run's object does with one message from a client's socket: a replay, a pong, terminal keys, or a
// person's action. RunSession's webSocketMessage hook hands each message here; a bad one gets an error event.
import { ANSWERED_BY } from '../../schema/answered-by.ts';
import type { RunAction } from '../../schema/run.ts';
import type { ActionResult } from './run-session.ts';
import type { RunSockets } from './run-sockets.ts';
import { getState, parseClientMessage, send, stripType } from './sockets.ts';
import type { TerminalSeat } from './terminal-seat.ts';

/** The parts of a run's object a socket message reaches. */
export type MessageDeps = {
  sockets: RunSockets;
  seat: TerminalSeat;
  /** A fork's parent's events, in memory before a replay. */
  withPrefix: () => Promise<void>;
  /** Applies a person's action, checked against the run's state. */
  act: (action: RunAction, by: string) => Promise<ActionResult>;
};

/** Handles one client message on `ws`; never throws for a bad message, which is answered with an error event. */
export async function onSocketMessage(d: MessageDeps, ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
  const parsed = parseClientMessage(message);
  if (!parsed.ok) return send(ws, { type: 'error', code: parsed.code, message: parsed.message });
  const msg = parsed.message;
  if (await d.sockets.refused(ws, msg)) return;
  switch (msg.type) {
    case 'hello':
      await d.withPrefix();
      return d.sockets.replay(ws, msg.since ?? 0);
    case 'ping':
      return send(ws, { type: 'pong', ts: new Date().toISOString() });
    case 'terminal_input':
    case 'terminal_resize': {
      const refused =
        msg.type === 'terminal_input'
          ? d.seat.input(ws, msg.data)
          : d.seat.resize(ws, { cols: msg.cols, rows: msg.rows });
      if (refused) send(ws, { type: 'error', code: 'not_holder', message: refused });
      return;
    }
    case 'user_action':
    case 'pause':
    case 'resume':
    case 'stop': {
      const action: RunAction = msg.type === 'user_action' ? stripType(msg) : { action: msg.type };
      const by = getState(ws).by ?? ANSWERED_BY.api;
      if (action.action === 'takeover') {
        const refused = await d.seat.takeover(ws, by, { cols: action.cols, rows: action.rows });
        if (refused) send(ws, { type: 'error', code: 'terminal_held', message: refused });
        return;
      }
      const result = await d.act(action, by);
      if (!result.ok)
        send(ws, {
          type: 'error',
          code: result.code === 'invalid' ? 'invalid_input' : result.code,
          message: result.message,
        });
      return;
    }
  }
}
