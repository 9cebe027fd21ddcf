'use client';
// The run page's socket as React state: a thin wrapper over schema/run-socket-client.ts (the client the
// CLI uses too), which owns since, the gap check and the backoff. This file only builds the URL and renders,
// at most once per animation frame: a burst of socket messages becomes one React update. A listener
// (the shared terminal's) hears each message and event at once, in socket order, and `send` talks back.
// The run page opens its socket as its code loads (openRunSocketEarly), and the hook takes that one over.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ClientMessage, ServerMessage } from '../../schema/protocol.ts';
import { socketProtocols } from '../../schema/protocol.ts';
import type { ConnectionState, RunSocketOptions } from '../../schema/run-socket-client.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import { initialViewState } from '../../schema/run-view-state.ts';
import { apiToken } from './api.ts';

export type Connection = ConnectionState;

/** Hears every valid message (before it is folded) and every stored event once, as they come. */
export type SocketListener = Pick<RunSocketOptions, 'onMessage' | 'onEvent'>;

/** The run's socket at `since`, the token as its subprotocol. */
function openSocket(runId: string, since: number): WebSocket {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  // `client=web` names this tab's socket in the log when it takes the terminal ("the web UI").
  const path = `/api/runs/${encodeURIComponent(runId)}/ws?since=${since}&client=web`;
  return new WebSocket(`${scheme}://${window.location.host}${path}`, socketProtocols(apiToken()));
}

/** What the hook hears from its socket client. */
type SocketHandlers = Pick<RunSocketOptions, 'onState' | 'onConnection' | 'onNotice' | 'onMessage' | 'onEvent'>;

/** A socket opened before the page rendered, until the hook takes it: what it heard is kept for then. */
type EarlySocket = {
  runId: string;
  client: RunSocketClient;
  /** The hook's handlers, once it has taken the socket; until then the client's own view holds the log. */
  handlers: SocketHandlers | null;
  /** Messages other than events heard before then (the snapshot, the terminal's): a listener hears them late. */
  heard: ServerMessage[];
  timer: ReturnType<typeof setTimeout>;
};
let early: EarlySocket | null = null;

/** How long a socket opened early waits for the page to take it before it is closed. */
const EARLY_TAKE_MS = 10_000;

/**
 * Opens the run's socket now, before React has rendered: on a long log the replay is the page's longest
 * wait, and it then overlaps loading the app instead of following it. useRunSocket takes it over.
 */
export function openRunSocketEarly(runId: string): void {
  if (early) return;
  const held: EarlySocket = {
    runId,
    handlers: null,
    heard: [],
    timer: setTimeout(() => dropEarly(), EARLY_TAKE_MS),
    client: new RunSocketClient({
      open: (since) => openSocket(runId, since),
      onState: (state) => held.handlers?.onState?.(state),
      onConnection: (connection) => held.handlers?.onConnection?.(connection),
      onNotice: (notice) => held.handlers?.onNotice?.(notice),
      onMessage: (message) => {
        if (held.handlers) held.handlers.onMessage?.(message);
        else if (message.type !== 'events') held.heard.push(message);
      },
      onEvent: (event, state) => held.handlers?.onEvent?.(event, state),
    }),
  };
  early = held;
  held.client.start();
}

/** Closes the early socket if the page has not taken it (another run, or none, is shown). */
function dropEarly(): void {
  if (!early || early.handlers) return;
  clearTimeout(early.timer);
  early.client.close('page closed');
  early = null;
}

/** The early socket for `runId`, now the hook's: its handlers set, and what came before them told once. */
function takeEarly(runId: string, handlers: SocketHandlers): RunSocketClient | null {
  const held = early;
  if (!held || held.handlers || held.runId !== runId) {
    dropEarly();
    return null;
  }
  clearTimeout(held.timer);
  early = null;
  held.handlers = handlers;
  const client = held.client;
  for (const message of held.heard) handlers.onMessage?.(message);
  for (const event of client.view.events) handlers.onEvent?.(event, client.view);
  handlers.onConnection?.(client.connection);
  handlers.onNotice?.(client.notice);
  if (client.view.run) handlers.onState?.(client.view);
  return client;
}

/**
 * The run's view, the socket's state and a notice for the person, kept current while `runId` is set;
 * `send` puts a message on the socket open now (false when there is none).
 */
export function useRunSocket(
  runId: string | null,
  listener?: SocketListener,
): {
  view: RunViewState;
  connection: Connection;
  notice: string | null;
  send: (message: ClientMessage) => boolean;
} {
  const [view, setView] = useState<RunViewState>(initialViewState);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [notice, setNotice] = useState<string | null>(null);
  const client = useRef<RunSocketClient | null>(null);
  const heard = useRef(listener);
  heard.current = listener;
  const send = useCallback((message: ClientMessage) => client.current?.send(message) ?? false, []);

  useEffect(() => {
    if (!runId) {
      dropEarly();
      return;
    }
    setView(initialViewState);
    let latest: RunViewState | null = null;
    let frame: number | null = null;
    let slow: ReturnType<typeof setTimeout> | null = null;
    // Until the replay has reached the snapshot, the log is shown once a second, not every frame: each render
    // of a partial log costs the page the whole log's work again and holds up the pages still coming, and a
    // long replay on a good line ends within the second (the snapshot alone, the run's header, shows at once).
    let caughtUp = false;
    let closed = false;
    const flush = () => {
      frame = null;
      slow = null;
      if (latest && !closed) setView(latest);
      latest = null;
    };
    const schedule = () => {
      if (caughtUp || latest?.events.length === 0) frame ??= requestAnimationFrame(flush);
      else slow ??= setTimeout(flush, 1000);
    };
    const handlers: SocketHandlers = {
      onState: (state) => {
        latest = state;
        schedule();
      },
      onConnection: setConnection,
      onNotice: setNotice,
      onMessage: (message) => heard.current?.onMessage?.(message),
      onEvent: (event, state) => heard.current?.onEvent?.(event, state),
    };
    const socket =
      takeEarly(runId, handlers) ?? new RunSocketClient({ open: (since) => openSocket(runId, since), ...handlers });
    client.current = socket;
    socket.start();
    void socket
      .waitFor(() => true)
      .then(() => {
        caughtUp = true;
        if (slow !== null) clearTimeout(slow);
        flush();
      });
    return () => {
      closed = true;
      if (client.current === socket) client.current = null;
      socket.close('page closed');
      if (frame !== null) cancelAnimationFrame(frame);
      if (slow !== null) clearTimeout(slow);
    };
  }, [runId]);

  return { view, connection, notice, send };
}
