// Opens the proxy's terminal relay as the worker does (ws, the shared secret, no Origin), and keeps
// what comes back: frames validated with relayFromProxySchema, the output decoded, and how it closed.
import WebSocket from 'ws';
import type { RelayFromProxy, RelayToProxy } from '../../schema/terminal.ts';
import { relayFromProxySchema, TERMINAL_RELAY_PATH } from '../../schema/terminal.ts';

export class RelayClient {
  readonly socket: WebSocket;
  readonly frames: RelayFromProxy[] = [];
  /** Every output byte so far, decoded as UTF-8. */
  output = '';
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(proxyUrl: string, secret: string | null, headers: Record<string, string> = {}) {
    const url = `${proxyUrl.replace(/^http/, 'ws')}${TERMINAL_RELAY_PATH}`;
    this.socket = new WebSocket(url, {
      headers: { ...(secret ? { authorization: `Bearer ${secret}` } : {}), ...headers },
    });
    this.socket.on('message', (data) => {
      const frame = relayFromProxySchema.parse(JSON.parse(data.toString()));
      this.frames.push(frame);
      if (frame.type === 'output') this.output += Buffer.from(frame.data, 'base64').toString('utf8');
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      this.socket.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.waiters.splice(0)) wake();
      }),
    );
  }

  /** Resolves once the socket is open. */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState === WebSocket.OPEN) return resolve();
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }

  send(frame: RelayToProxy | Record<string, unknown> | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Types text into the terminal. */
  type(text: string): void {
    this.send({ type: 'input', data: text });
  }

  /** Waits until `test` holds for what came back, or fails after `timeoutMs` naming what it waited for. */
  async until(what: string, test: (c: this) => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test(this)) {
      if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}; output so far:\n${this.output}`);
      if (this.socket.readyState === WebSocket.CLOSED && !test(this))
        throw new Error(`the relay closed while waiting for ${what}; output:\n${this.output}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Waits until the output matches `pattern`. */
  expect(pattern: RegExp, timeoutMs?: number): Promise<void> {
    return this.until(String(pattern), (c) => pattern.test(c.output), timeoutMs);
  }

  /** Logs in as bandit0 on the practice range (a wide screen, so a bench's line never wraps) and waits for the prompt. */
  async openPracticeLevel0(runId: string): Promise<void> {
    await this.ready();
    this.send({ type: 'open', runId, target: 'practice', level: 0, password: null, cols: 200, rows: 50 });
    await this.expect(/bandit0@practice:~\$ /);
  }
}
