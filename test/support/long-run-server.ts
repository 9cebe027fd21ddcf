// The built web app (web/out) and one long run (long-run.ts) on loopback, answering the run page's REST
// calls and run socket as the worker does: the replay in pages of at most 1,000 events, then whatever
// the test or benchmark sends live (a burst of steps, a binary output, a stop).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname } from 'node:path';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { TYPES, webFile } from './fake-run-server.ts';
import { LONG_RUN_ID, LongRunLog, longRunSummary } from './long-run.ts';
import { acceptUpgrade, textFrame } from './ws-server-frames.ts';

/** The worker's replay page (worker/run-session/run-sockets.ts). */
const REPLAY_PAGE = 1000;

export type LongRunServer = {
  url: string;
  /** The run page's address, with an optional `#seq-N`. */
  runUrl(hash?: string): string;
  readonly log: LongRunLog;
  /** Sends `events` to every open socket in messages of `perMessage`, `gapMs` apart (0: all at once). */
  send(events: RunEvent[], perMessage?: number, gapMs?: number): Promise<void>;
  close(): Promise<void>;
};

/** Serves a run of `events` events (running until `log.stop()` events are sent). */
export async function startLongRunServer(webOut: string, events: number): Promise<LongRunServer> {
  const log = new LongRunLog(events);
  log.grow(events);
  let status: 'running' | 'stopped' = 'running';
  const json = (res: ServerResponse, code: number, body: unknown) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === `/api/runs/${LONG_RUN_ID}`) return json(res, 200, longRunSummary(status, log.currentLevel));
    if (path === `/api/runs/${LONG_RUN_ID}/verification`) return json(res, 200, { report: null, verifiedBy: [] });
    const file = path.startsWith('/api/') ? null : webFile(webOut, path === '/' ? '/index.html' : path);
    if (file) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      return res.end(readFileSync(file));
    }
    return json(res, 404, { error: { code: 'not_found', message: `no ${path} on the long-run server` } });
  });
  const open = new Set<Socket>();
  const broadcast = (message: ServerMessage) => {
    const frame = textFrame(JSON.stringify(message));
    for (const socket of open) socket.write(frame);
  };
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    if (!acceptUpgrade(req, socket)) return socket.destroy();
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    const since = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('since') ?? 0);
    const send = (message: ServerMessage) => socket.write(textFrame(JSON.stringify(message)));
    send({ type: 'welcome', protocolVersion: 1, runId: LONG_RUN_ID });
    send({
      type: 'snapshot',
      run: longRunSummary(status, log.currentLevel),
      lastSeq: log.lastSeq,
      pendingAction: null,
      live: null,
      queuePosition: null,
    });
    for (let i = since; i < log.events.length; i += REPLAY_PAGE)
      send({ type: 'events', events: log.events.slice(i, i + REPLAY_PAGE) });
    open.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    log,
    runUrl: (hash = '') => `${url}/run?id=${LONG_RUN_ID}${hash}`,
    async send(events, perMessage = 4, gapMs = 0) {
      for (let i = 0; i < events.length; i += perMessage) {
        const batch = events.slice(i, i + perMessage);
        if (batch.some((e) => e.type === 'run_complete')) status = 'stopped';
        broadcast({ type: 'events', events: batch });
        if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
