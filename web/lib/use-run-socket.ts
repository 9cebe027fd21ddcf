'use client';
// The run page's socket as React state: a thin wrapper over schema/run-socket-client.ts (the client the
// CLI uses too), which owns since, the gap check and the backoff. This file only builds the URL and renders,
// at most once per animation frame: a burst of socket messages becomes one React update. A listener
// (the shared terminal's) hears each message and event at once, in socket order, and `send` talks back.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ClientMessage } from '../../schema/protocol.ts';
import { socketProtocols } from '../../schema/protocol.ts';
import type { ConnectionState, RunSocketOptions } from '../../schema/run-socket-client.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import { initialViewState } from '../../schema/run-view-state.ts';
import { apiToken } from './api.ts';

export type Connection = ConnectionState;

/** Hears every valid message (before it is folded) and every stored event once, as they come. */
export type SocketListener = Pick<RunSocketOptions, 'onMessage' | 'onEvent'>;

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
    if (!runId) return;
    setView(initialViewState);
    let latest: RunViewState | null = null;
    let frame: number | null = null;
    let slow: ReturnType<typeof setTimeout> | null = null;
    // Until the replay has reached the snapshot, a long log is shown 4 times a second, not every frame:
    // the pages of old events in between would each cost a render nobody reads.
    let caughtUp = false;
    let closed = false;
    const flush = () => {
      frame = null;
      slow = null;
      if (latest && !closed) setView(latest);
      latest = null;
    };
    const schedule = () => {
      if (caughtUp) frame ??= requestAnimationFrame(flush);
      else slow ??= setTimeout(flush, 250);
    };
    const socket = new RunSocketClient({
      open: (since) => {
        const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
        // `client=web` names this tab's socket in the log when it takes the terminal ("the web UI").
        const path = `/api/runs/${encodeURIComponent(runId)}/ws?since=${since}&client=web`;
        return new WebSocket(`${scheme}://${window.location.host}${path}`, socketProtocols(apiToken()));
      },
      onState: (state) => {
        latest = state;
        schedule();
      },
      onConnection: setConnection,
      onNotice: setNotice,
      onMessage: (message) => heard.current?.onMessage?.(message),
      onEvent: (event, state) => heard.current?.onEvent?.(event, state),
    });
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
