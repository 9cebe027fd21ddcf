'use client';
// The run page's socket as React state: a thin wrapper over schema/run-socket-client.ts (the client the
// CLI uses too), which owns since, the gap check and the backoff. This file only builds the URL and renders,
// at most once per animation frame: a burst of socket messages becomes one React update.
import { useEffect, useState } from 'react';
import { socketProtocols } from '../../schema/protocol.ts';
import type { ConnectionState } from '../../schema/run-socket-client.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import { initialViewState } from '../../schema/run-view-state.ts';
import { apiToken } from './api.ts';

export type Connection = ConnectionState;

/** The run's view, the socket's state and a notice for the person, kept current while `runId` is set. */
export function useRunSocket(runId: string | null): {
  view: RunViewState;
  connection: Connection;
  notice: string | null;
} {
  const [view, setView] = useState<RunViewState>(initialViewState);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    if (!runId) return;
    setView(initialViewState);
    let latest: RunViewState | null = null;
    let frame: number | null = null;
    const flush = () => {
      frame = null;
      if (latest) setView(latest);
      latest = null;
    };
    const client = new RunSocketClient({
      open: (since) => {
        const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
        const path = `/api/runs/${encodeURIComponent(runId)}/ws?since=${since}`;
        return new WebSocket(`${scheme}://${window.location.host}${path}`, socketProtocols(apiToken()));
      },
      onState: (state) => {
        latest = state;
        frame ??= requestAnimationFrame(flush);
      },
      onConnection: setConnection,
      onNotice: setNotice,
    });
    client.start();
    return () => {
      client.close('page closed');
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [runId]);

  return { view, connection, notice };
}
