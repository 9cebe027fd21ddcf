// A stack that is not to be trusted, on loopback: it answers the CLI's REST calls and run socket as
// the worker does (schema/protocol.ts), with the hostile run of hostile-run.ts, a model list and an
// error whose text is hostile, and an artifacts download whose Content-Disposition names any path.
// Given the built web app (web/out), it serves that too, so Chromium can show the run.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ServerMessage } from '../../schema/protocol.ts';
import { HOSTILE_RUN_ID, hostileEvents, hostileSummary } from './hostile-run.ts';
import { HOSTILE } from './hostile-text.ts';
import { acceptUpgrade, textFrame } from './ws-server-frames.ts';

export type FakeRunServer = {
  url: string;
  /** What the next artifacts download says its file name is (the Content-Disposition header, whole). */
  setDisposition(value: string): void;
  /** The bytes every artifacts download answers with. */
  readonly zip: Uint8Array;
  close(): Promise<void>;
};

const few = HOSTILE.filter((h) => h.text.length < 5000).map((h) => h.text);

export const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** A file of the exported web app for a path (`/run` is run.html), or null. */
export function webFile(webOut: string, path: string): string | null {
  const clean = normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, '');
  for (const candidate of [join(webOut, clean), join(webOut, `${clean}.html`), join(webOut, clean, 'index.html')]) {
    if (candidate.startsWith(webOut) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** `webOut`: the built web app to serve too; `small`: leave out the events over 100 KB (the 1 MB payloads). */
export async function startFakeRunServer(options: { webOut?: string; small?: boolean } = {}): Promise<FakeRunServer> {
  // Numbered again after the filter: a gap in seq would send a client back for the missing events.
  const events = hostileEvents()
    .filter((e) => options.small !== true || JSON.stringify(e).length < 100_000)
    .map((e, i) => ({ ...e, seq: i + 1 }));
  const zip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);
  let disposition = `attachment; filename="${HOSTILE_RUN_ID}.zip"`;
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === `/api/runs/${HOSTILE_RUN_ID}` || (path === '/api/runs' && req.method === 'POST'))
      return json(res, 200, hostileSummary());
    if (path === `/api/runs/${HOSTILE_RUN_ID}/artifacts`) {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-disposition': disposition });
      return res.end(zip);
    }
    if (path === '/api/models')
      return json(res, 200, {
        models: few.map((text, i) => ({ id: `m${i}${text}`, provider: 'fake', available: i % 2 === 0, reason: text })),
      });
    const file = options.webOut && !path.startsWith('/api/') ? webFile(options.webOut, path) : null;
    if (file) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      return res.end(readFileSync(file));
    }
    return json(res, 404, { error: { code: 'not_found', message: few.join(' ') } });
  });
  const open = new Set<Socket>();
  // The run socket: the handshake by hand (ws-server-frames.ts; the project has no WebSocket server
  // library), then the run's messages; what the client sends is not read, and the socket stays open until closed.
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    if (!acceptUpgrade(req, socket)) return socket.destroy();
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    const send = (message: ServerMessage) => socket.write(textFrame(JSON.stringify(message)));
    send({ type: 'welcome', protocolVersion: 1, runId: HOSTILE_RUN_ID });
    send({
      type: 'snapshot',
      run: hostileSummary(),
      lastSeq: events.length,
      pendingAction: null,
      live: null,
      queuePosition: null,
    });
    for (const text of few) send({ type: 'thinking_delta', level: 1, stage: 'plan', text });
    send({ type: 'events', events });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    zip,
    setDisposition: (value) => void (disposition = value),
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
