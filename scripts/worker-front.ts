// The worker's one public port under `npm start`, in place of wrangler's relay worker (whose
// `/cdn-cgi/live-reload` socket takes upgrades from any localhost page): forwards each request to
// workerd, and refuses a WebSocket upgrade that another site's page asks for.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { accessLogLine } from './access-log.ts';

/** Where the worker listens now, and the headers that make it trust this front (wrangler's shared secret). */
export type WorkerTarget = { hostname: string; port: number; headers: Record<string, string> };

/** Hop-by-hop headers, never forwarded; `mf-*` and CF-Connecting-IP are set here, never taken from a client. */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'cf-connecting-ip',
]);

/**
 * Why an upgrade must be refused, or null: a browser names the page in Origin, and a page of this
 * origin names the same host as Host. Clients that are not browsers send no Origin.
 */
export function crossOriginUpgrade(headers: IncomingHttpHeaders): string | null {
  const origin = headers.origin;
  if (origin === undefined) return null;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `the Origin "${origin.slice(0, 100)}" is not a URL`;
  }
  const host = (headers.host ?? '').toLowerCase();
  return originHost === host
    ? null
    : `a page on ${origin.slice(0, 100)} may not open a WebSocket to ${host.slice(0, 100)}`;
}

/** A loopback HTTP front for workerd that holds requests while the worker reloads. */
export class WorkerFront {
  private target: Promise<WorkerTarget>;
  private readonly waiting: ((target: WorkerTarget) => void)[] = [];
  private readonly agent = new Agent({ keepAlive: true });
  private readonly server = createServer((req, res) => void this.forward(req, res));
  private readonly sockets = new Set<Socket>();
  /** Where a line per request goes (`npm start` hides them unless asked); none when unset. */
  private readonly log: ((line: string) => void) | null;

  constructor(options: { log?: (line: string) => void } = {}) {
    this.log = options.log ?? null;
    this.target = this.pending();
    this.server.on(
      'upgrade',
      (req: IncomingMessage, socket: Socket, head: Buffer) => void this.upgrade(req, socket, head),
    );
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /** Listens on `hostname:port`; resolves with the URL. */
  listen(hostname: string, port: number): Promise<URL> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, hostname, () => resolve(new URL(`http://${hostname}:${port}`)));
    });
  }

  /** Holds new requests until `play`: the worker is reloading. */
  pause(): void {
    this.target = this.pending();
  }

  /** Sends held and new requests to `target`. */
  play(target: WorkerTarget): void {
    this.target = Promise.resolve(target);
    for (const resolve of this.waiting.splice(0)) resolve(target);
  }

  /** Stops listening and drops every connection. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.agent.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private pending(): Promise<WorkerTarget> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private headersFor(req: IncomingMessage, target: WorkerTarget): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || DROPPED.has(name) || name.startsWith('mf-')) continue;
      headers[name] = value;
    }
    // What wrangler's relay sends: the URL the client asked for, and the secret that makes workerd trust it.
    headers['mf-original-url'] = `http://${req.headers.host ?? `${target.hostname}:${target.port}`}${req.url ?? '/'}`;
    // The peer's own address: a client cannot choose it (the stack listens on loopback only).
    headers['cf-connecting-ip'] = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    return { ...headers, ...target.headers };
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    if (this.log) {
      const log = this.log;
      res.once('close', () =>
        log(accessLogLine(req.method ?? '?', req.url ?? '/', res.statusCode, Date.now() - started)),
      );
    }
    const target = await this.target;
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: this.headersFor(req, target),
        agent: this.agent,
      },
      (answer) => {
        const headers: string[] = [];
        for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
          if (!DROPPED.has(answer.rawHeaders[i]!.toLowerCase()))
            headers.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`the worker did not answer (${err.message}); see the [worker] lines of npm start's output`);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.on('error', () => upstream.destroy());
    req.pipe(upstream);
  }

  private async upgrade(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    // Node leaves an upgraded socket with no error listener: a client's reset would crash the front,
    // and with it the stack. A page scanning ports must not be able to do that.
    socket.on('error', () => socket.destroy());
    const refusal = crossOriginUpgrade(req.headers);
    if (refusal) {
      refuseUpgrade(socket, 403, 'Forbidden', `${refusal}\n`);
      return;
    }
    const target = await this.target;
    if (socket.destroyed) return;
    const upstream = httpRequest({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...this.headersFor(req, target), connection: 'Upgrade', upgrade: req.headers.upgrade ?? 'websocket' },
      agent: false,
    });
    // Only a 101 becomes a pipe. Any other answer (401, 404, 429) is relayed and the connection
    // closed, so a client cannot go on to send raw requests that skip this front's header rules.
    upstream.on('upgrade', (answer, upSocket, upHead) => {
      upSocket.on('error', () => {
        upSocket.destroy();
        socket.destroy();
      });
      if (socket.destroyed) return void upSocket.destroy();
      socket.write(
        `HTTP/1.1 101 ${answer.statusMessage ?? 'Switching Protocols'}\r\n${headerLines(answer.rawHeaders)}\r\n`,
      );
      this.log?.(accessLogLine(req.method ?? 'GET', req.url ?? '/', 101, 0));
      if (upHead.length) socket.write(upHead);
      if (head.length) upSocket.write(head);
      upSocket.pipe(socket);
      socket.pipe(upSocket);
      upSocket.on('close', () => socket.destroy());
      socket.on('close', () => upSocket.destroy());
    });
    upstream.on('response', (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const pairs: string[] = [];
        for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) {
          const name = answer.rawHeaders[i]!;
          if (!DROPPED.has(name.toLowerCase()) && name.toLowerCase() !== 'content-length')
            pairs.push(name, answer.rawHeaders[i + 1]!);
        }
        socket.end(
          Buffer.concat([
            Buffer.from(
              `HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\n${headerLines(pairs)}content-length: ${body.length}\r\nconnection: close\r\n\r\n`,
            ),
            body,
          ]),
        );
      });
      answer.on('error', () => socket.destroy());
    });
    upstream.on('error', (err) =>
      refuseUpgrade(socket, 502, 'Bad Gateway', `the worker did not answer (${err.message})\n`),
    );
    socket.on('close', () => upstream.destroy());
    upstream.end();
  }
}

/** Raw header pairs as `name: value` lines, each ending in CRLF. */
function headerLines(raw: string[]): string {
  let out = '';
  for (let i = 0; i + 1 < raw.length; i += 2) out += `${raw[i]}: ${raw[i + 1]}\r\n`;
  return out;
}

/** Answers an upgrade with a plain-text refusal and closes the connection. */
function refuseUpgrade(socket: Socket, status: number, reason: string, body: string): void {
  if (socket.destroyed) return;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
