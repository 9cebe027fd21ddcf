'use client';
// The one owner of a run's WebSocket: connects with ?since=, folds snapshot and events into the view
// state, reconnects with backoff from the last seq it holds, and never shows an event twice or skips one.
import { useEffect, useRef, useState } from 'react';
import { eventsOf, serverMessageSchema, WS_SUBPROTOCOL } from '../../schema/protocol.ts';
import { apiToken } from './api.ts';
import { applyEvents, applyLive, applySnapshot, initialViewState } from '../../schema/run-view-state.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';

export type Connection = 'connecting' | 'live' | 'reconnecting';

const MAX_BACKOFF_MS = 10_000;

export function useRunSocket(runId: string | null): {
  view: RunViewState;
  connection: Connection;
  notice: string | null;
} {
  const [view, setView] = useState<RunViewState>(initialViewState);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [notice, setNotice] = useState<string | null>(null);
  // The socket handlers need the latest seq synchronously, not at the next render.
  const latest = useRef<RunViewState>(initialViewState);

  useEffect(() => {
    if (!runId) return;
    latest.current = initialViewState;
    setView(initialViewState);
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let disposed = false;
    const update = (next: RunViewState) => {
      latest.current = next;
      setView(next);
    };

    const connect = () => {
      const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
      const token = apiToken();
      const url = `${scheme}://${window.location.host}/api/runs/${encodeURIComponent(runId)}/ws?since=${latest.current.lastSeq}`;
      const ws = new WebSocket(url, token ? [WS_SUBPROTOCOL, `token.${token}`] : [WS_SUBPROTOCOL]);
      socket = ws;
      ws.onmessage = (message) => {
        let json: unknown;
        try {
          json = JSON.parse(String(message.data));
        } catch {
          return setNotice('The server sent a message that is not JSON; ignoring it.');
        }
        const parsed = serverMessageSchema.safeParse(json);
        if (!parsed.success) return; // A newer server's message type: ignore it, as the protocol asks.
        const msg = parsed.data;
        if (msg.type === 'snapshot') {
          failures = 0;
          setConnection('live');
          setNotice(null);
          update(applySnapshot(latest.current, msg));
        } else if (msg.type === 'error') {
          setNotice(msg.message);
        } else if (msg.type === 'thinking_delta') {
          update(applyLive(latest.current, msg));
        } else if (msg.type === 'queue') {
          update({ ...latest.current, queuePosition: msg.position });
        } else {
          const { state, gap } = applyEvents(latest.current, eventsOf(msg));
          update(state);
          // Missed events: start again from what we hold; the replay fills the hole.
          if (gap) ws.close(4000, 'gap in the event log');
        }
      };
      ws.onclose = () => {
        if (disposed || socket !== ws) return;
        setConnection('reconnecting');
        const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures);
        failures += 1;
        timer = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(timer);
      socket?.close(1000, 'page closed');
    };
  }, [runId]);

  return { view, connection, notice };
}
