// GET /v1/terminal: the one WebSocket the proxy accepts, from the worker only (the shared secret, no
// Origin: a browser always sends one), relaying a person's terminal (terminal-session.ts). One
// terminal per run: a second open for a run closes the older one first.
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { Target } from '../../schema/levels.ts';
import { TERMINAL_RELAY_PATH } from '../../schema/terminal.ts';
import { bearerCheck } from '../bearer-check.ts';
import { SshSession } from '../ssh/ssh-session.ts';
import type { GameTarget } from '../targets/target.ts';
import { TerminalSession } from './terminal-session.ts';

/** The largest frame the relay reads: a keystroke batch is 4096 characters, JSON-escaped at most sixfold. */
const MAX_FRAME_BYTES = 64 * 1024;

// ws is loaded the Node way even when a bundler resolves with the browser condition (the worker tests'
// global setup starts this proxy through Vite, whose `ws` is the browser stub without WebSocketServer).
const { WebSocketServer } = createRequire(import.meta.url)('ws') as typeof import('ws');

/** How long a closing socket may take to answer before the proxy, stopping, cuts it. */
const CLOSE_GRACE_MS = 500;

export type RelayOptions = { secret: string; targets: Record<Target, GameTarget>; connectTimeoutMs: number };

export class TerminalRelay {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly open = new Map<string, TerminalSession>();
  private readonly authorized: (header: string | undefined) => boolean;
  private readonly options: RelayOptions;

  constructor(options: RelayOptions) {
    this.options = options;
    this.authorized = bearerCheck(options.secret);
  }

  /** Whether an upgrade asks for the relay's path (anything else keeps the proxy's refusal). */
  static wants(req: IncomingMessage): boolean {
    return new URL(req.url ?? '/', 'http://proxy').pathname === TERMINAL_RELAY_PATH;
  }

  /** Accepts the upgrade from the worker, or answers 403 (an Origin) / 401 (no secret) and closes. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (req.headers.origin !== undefined)
      return refuse(socket, 403, 'the terminal relay serves the worker only; requests with an Origin are refused');
    if (!this.authorized(req.headers.authorization))
      return refuse(socket, 401, 'send Authorization: Bearer <PROXY_SECRET>, the secret the worker and proxy share');
    this.server.handleUpgrade(req, socket, head, (ws) => {
      new TerminalSession(ws, {
        targets: this.options.targets,
        connectTimeoutMs: this.options.connectTimeoutMs,
        oracle: (target, level, password) => loginWorks(target, level, password, this.options.connectTimeoutMs),
        onOpen: (runId, session) => {
          const older = this.open.get(runId);
          this.open.set(runId, session);
          older?.end('another terminal was opened for this run');
        },
        onEnd: (runId, session) => {
          if (this.open.get(runId) === session) this.open.delete(runId);
        },
      });
    });
  }

  /** Terminals open now. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Ends every terminal (the proxy is stopping). A peer that does not answer the closing handshake
   * would hold the proxy's close for ws's 30 s: after a short grace its socket is cut.
   */
  closeAll(): void {
    for (const session of [...this.open.values()]) session.end('the proxy is stopping');
    setTimeout(() => {
      for (const ws of this.server.clients) ws.terminate();
    }, CLOSE_GRACE_MS).unref();
    this.server.close();
  }
}

/** The login oracle: one login as `level` with `password`, then logged out. */
async function loginWorks(target: GameTarget, level: number, password: string, timeoutMs: number): Promise<boolean> {
  const session = new SshSession({
    host: target.host,
    port: target.port,
    username: target.username(level),
    password,
    connectTimeoutMs: timeoutMs,
  });
  try {
    return (await session.connect(AbortSignal.timeout(timeoutMs * 2))).ok;
  } finally {
    session.close();
  }
}

function refuse(socket: Duplex, status: 401 | 403, message: string): void {
  const body = `${message}\n`;
  const text = status === 401 ? 'Unauthorized' : 'Forbidden';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
