// The Durable Object's end of one terminal: a WebSocket it opens to the proxy's /v1/terminal, which
// logs in over SSH with a PTY. Bytes flow both ways as they come, no polling. Memory only: a relay
// does not outlive its object, which is why a restart ends the terminal (terminal-seat.ts).
import { RUN_ID_HEADER } from '../../schema/proxy-routing.ts';
import { describeIssues } from '../../schema/issues.ts';
import type { RelayFromProxy, RelayToProxy } from '../../schema/terminal.ts';
import { relayFromProxySchema, TERMINAL_RELAY_PATH } from '../../schema/terminal.ts';
import type { WorkerSettings } from '../env.ts';

/** What the relay reports to its seat. `closed` comes once, last, however the relay ended. */
export type RelayHandlers = {
  opened: () => void;
  output: (base64: string) => void;
  proved: (level: number, password: string) => void;
  closed: (message: string) => void;
};

/** One open relay to the proxy. */
export class TerminalRelay {
  private readonly socket: WebSocket;
  private ended = false;

  private constructor(socket: WebSocket) {
    this.socket = socket;
  }

  /**
   * Opens the relay and sends `open`; never throws. A proxy that refuses or cannot be reached is a
   * `closed` with the reason, so the seat has one way to learn that a terminal is gone.
   */
  static async open(
    settings: WorkerSettings,
    open: Extract<RelayToProxy, { type: 'open' }>,
    on: RelayHandlers,
  ): Promise<TerminalRelay | null> {
    let response: Response;
    try {
      response = await fetch(`${settings.proxyUrl}${TERMINAL_RELAY_PATH}`, {
        headers: {
          upgrade: 'websocket',
          authorization: `Bearer ${settings.proxySecret}`,
          [RUN_ID_HEADER]: open.runId,
        },
      });
    } catch (err) {
      on.closed(`cannot reach the proxy at ${settings.proxyUrl}: ${err instanceof Error ? err.message : String(err)}`);
      return null;
    }
    const socket = response.webSocket;
    if (response.status !== 101 || !socket) {
      const body = await response.text().catch(() => '');
      on.closed(`the proxy refused the terminal (HTTP ${response.status}): ${body.slice(0, 200)}`);
      return null;
    }
    socket.accept();
    const relay = new TerminalRelay(socket);
    relay.listen(on);
    relay.send(open);
    return relay;
  }

  /** Sends input, a resize or close to the proxy; nothing once the relay has ended. */
  send(message: RelayToProxy): void {
    if (this.ended) return;
    try {
      this.socket.send(JSON.stringify(message));
    } catch {
      // Closed under us: the close listener reports it.
    }
  }

  /**
   * Asks the proxy to end the login and waits, at most `ms`, until it has: a word the session showed may
   * still be being tried as the next login, and its `proved` comes first. Then stops listening.
   */
  async drain(ms: number): Promise<void> {
    if (this.ended) return;
    this.send({ type: 'close' });
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.socket.addEventListener('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.close();
  }

  /** Asks the proxy to end the login, and stops listening: the seat has already said why it ended. */
  close(): void {
    if (this.ended) return;
    this.send({ type: 'close' });
    this.ended = true;
    try {
      this.socket.close(1000, 'closed by the run');
    } catch {
      // Already closed.
    }
  }

  private listen(on: RelayHandlers): void {
    const finish = (message: string) => {
      if (this.ended) return;
      this.ended = true;
      on.closed(message);
    };
    this.socket.addEventListener('message', (event) => {
      if (this.ended) return;
      const message = this.parse(event.data);
      if (!message.ok) {
        finish(`the proxy sent a bad terminal message: ${message.error}`);
        this.socket.close(1008, 'bad message');
        return;
      }
      const m = message.value;
      if (m.type === 'opened') on.opened();
      else if (m.type === 'output') on.output(m.data);
      else if (m.type === 'proved') on.proved(m.level, m.password);
      else finish(m.message);
    });
    this.socket.addEventListener('close', (event) =>
      finish(event.reason ? `the terminal closed: ${event.reason}` : 'the terminal closed'),
    );
    this.socket.addEventListener('error', () => finish('the connection to the proxy broke'));
  }

  private parse(data: unknown): { ok: true; value: RelayFromProxy } | { ok: false; error: string } {
    if (typeof data !== 'string') return { ok: false, error: 'a binary frame' };
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return { ok: false, error: 'not JSON' };
    }
    const parsed = relayFromProxySchema.safeParse(json);
    return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeIssues(parsed.error) };
  }
}
