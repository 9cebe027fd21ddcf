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
    const client = new RunSocketClient({
      open: (since) => {
        const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
        const path = `/api/runs/${encodeURIComponent(runId)}/ws?since=${since}`;
        return new WebSocket(`${scheme}://${window.location.host}${path}`, socketProtocols(apiToken()));
      },
      onState: (state) => {
        latest = state;
        schedule();
      },
      onConnection: setConnection,
      onNotice: setNotice,
    });
    client.start();
    void client
      .waitFor(() => true)
      .then(() => {
        caughtUp = true;
        if (slow !== null) clearTimeout(slow);
        flush();
      });
    return () => {
      closed = true;
      client.close('page closed');
      if (frame !== null) cancelAnimationFrame(frame);
      if (slow !== null) clearTimeout(slow);
    };
  }, [runId]);

  return { view, connection, notice };
}
