// One SSH login (host, user, password) kept open and reused for every command at a level.
// Nagle is off on the socket: without it each exec waits ~40 ms for delayed ACKs on loopback.
import ssh2 from 'ssh2';
import { DROPPED_COMMAND_NOTE } from '../../schema/lost-command.ts';
import { OutputCollector } from './output-collector.ts';
import type { SshFailure } from './ssh-failure.ts';
import { classifySshError } from './ssh-failure.ts';
import { worldEnv } from './world-env.ts';

export type SessionOptions = {
  host: string;
  port: number;
  username: string;
  password: string;
  connectTimeoutMs: number;
  /** A private world's key (schema/worlds.ts), sent as PRACTICE_WORLD on every channel; unset: the shared world. */
  world?: string;
  /** The run this login plays for, sent as PRACTICE_PLAYER on every channel (the practice range only). */
  player?: string;
};
export type ExecOptions = { timeoutMs: number; maxBytes: number; signal: AbortSignal };
export type ExecResult = {
  ok: true;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  durationMs: number;
  truncated: boolean;
  timedOut: boolean;
  /** Bytes each stream printed in all, before the cap (a binary output's preview names its size). */
  bytes?: { stdout: number; stderr: number };
};
export type Connected = { ok: true } | { ok: false; failure: SshFailure };

type TunableClient = ssh2.Client & { setNoDelay(noDelay?: boolean): void };

/** How long a timed-out command may take to deliver its last output after we close it. */
const CLOSE_GRACE_MS = 500;

const aborted = (where: string): { ok: false; failure: SshFailure } => ({
  ok: false,
  failure: { kind: 'aborted', message: `${where}: aborted` },
});

export class SshSession {
  private client: TunableClient | null = null;
  /** The client still logging in, so close() can end it before it is ready. */
  private connecting: TunableClient | null = null;
  private closed = false;
  private ready: Promise<Connected> | null = null;
  lastUsed = Date.now();
  readonly options: SessionOptions;

  constructor(options: SessionOptions) {
    this.options = options;
  }

  get where(): string {
    return `${this.options.username}@${this.options.host}:${this.options.port}`;
  }

  /** Logs in, or reuses the live connection. Never throws. */
  connect(signal: AbortSignal): Promise<Connected> {
    if (signal.aborted || this.closed) return Promise.resolve(aborted(this.where));
    this.ready ??= this.open();
    return raceAbort(this.ready, signal, () => aborted(this.where));
  }

  /**
   * Runs one command; reconnects once if the connection dropped before the command was sent. A drop after it
   * may have been sent is answered as a lost command (no output, the note), not sent again. Never throws.
   */
  async exec(command: string, options: ExecOptions): Promise<ExecResult | { ok: false; failure: SshFailure }> {
    for (let tries = 0; ; tries++) {
      const connected = await this.connect(options.signal);
      if (!connected.ok) return connected;
      const client = this.client;
      if (!client) continue;
      const result = await this.execOn(client, command, options);
      if (result === 'maybe-ran') {
        this.reset();
        return {
          ok: true,
          stdout: '',
          stderr: DROPPED_COMMAND_NOTE,
          exitCode: null,
          durationMs: 0,
          truncated: false,
          timedOut: false,
        };
      }
      if (result === 'dropped' && tries === 0) {
        this.reset();
        continue;
      }
      if (result === 'dropped')
        return {
          ok: false,
          failure: { kind: 'dropped', message: `${this.where}: the connection dropped twice while running a command` },
        };
      return result;
    }
  }

  /** Ends the connection, and a login still in progress: nothing is left open on keepalive. */
  close(): void {
    this.closed = true;
    this.client?.end();
    this.connecting?.end();
    this.connecting = null;
    this.reset();
  }

  private reset(): void {
    this.client = null;
    this.ready = null;
  }

  private open(): Promise<Connected> {
    return new Promise((resolve) => {
      const client = new ssh2.Client() as TunableClient;
      let settled = false;
      this.connecting = client;
      const settle = (result: Connected) => {
        if (settled) return;
        settled = true;
        if (this.connecting === client) this.connecting = null;
        if (!result.ok) this.reset();
        resolve(result);
      };
      client
        .on('ready', () => {
          // Closed while logging in (the caller gave up): end it instead of keeping it.
          if (this.closed) {
            client.end();
            return settle(aborted(this.where));
          }
          this.client = client;
          settle({ ok: true });
        })
        .on('error', (err) => settle({ ok: false, failure: classifySshError(err, this.where) }))
        .on('close', () => {
          // A drop after login: the next exec reconnects.
          if (this.client === client) this.reset();
          settle({
            ok: false,
            failure: { kind: 'dropped', message: `${this.where}: the server closed the connection` },
          });
        });
      client.connect({
        host: this.options.host,
        port: this.options.port,
        username: this.options.username,
        password: this.options.password,
        readyTimeout: this.options.connectTimeoutMs,
        tryKeyboard: false,
        keepaliveInterval: 15_000,
      });
      client.setNoDelay(true);
    });
  }

  private execOn(
    client: ssh2.Client,
    command: string,
    options: ExecOptions,
  ): Promise<ExecResult | 'dropped' | 'maybe-ran' | { ok: false; failure: SshFailure }> {
    const started = performance.now();
    this.lastUsed = Date.now();
    return new Promise((resolve) => {
      // ssh2 answers every request still waiting when the connection closes with an error, after the client's
      // 'close' event: the exec request among them, so the server may have started the command. An error while
      // the connection stands is the server's refusal (of the channel or the exec), after which nothing ran.
      let closed = false;
      const onClose = () => {
        closed = true;
      };
      client.once('close', onClose);
      const send = (handle: ssh2.ClientCallback) => {
        try {
          client.exec(command, { env: worldEnv(this.options.world, this.options.player) }, handle);
        } catch {
          // "Not connected": the socket had closed, and ssh2 sent nothing; the command can go on a new connection.
          client.off('close', onClose);
          resolve('dropped');
        }
      };
      send((err, stream) => {
        client.off('close', onClose);
        if (err) return resolve(closed ? 'maybe-ran' : 'dropped');
        const stdout = new OutputCollector(options.maxBytes);
        const stderr = new OutputCollector(options.maxBytes);
        let exitCode: number | null = null;
        let timedOut = false;
        let settled = false;
        const timers: NodeJS.Timeout[] = [];
        const settle = () => {
          if (settled) return;
          settled = true;
          for (const t of timers) clearTimeout(t);
          options.signal.removeEventListener('abort', onAbort);
          this.lastUsed = Date.now();
          if (options.signal.aborted) return resolve(aborted(this.where));
          const note = timedOut
            ? `\n[bandit-runner: no answer within ${options.timeoutMs / 1000} s; the command was stopped]`
            : '';
          resolve({
            ok: true,
            stdout: stdout.text(),
            stderr: stderr.text() + note,
            exitCode: timedOut ? null : exitCode,
            durationMs: Math.round(performance.now() - started),
            truncated: stdout.truncated || stderr.truncated,
            timedOut,
            bytes: { stdout: stdout.bytes, stderr: stderr.bytes },
          });
        };
        // A server may finish the command before it honours our close, so nobody waits for it:
        // an abort settles at once, a timeout after a short grace for the last output.
        const stopChannel = () => {
          stream.signal('KILL');
          stream.close();
        };
        const onAbort = () => {
          stopChannel();
          settle();
        };
        timers.push(
          setTimeout(() => {
            timedOut = true;
            stopChannel();
            timers.push(setTimeout(settle, CLOSE_GRACE_MS));
          }, options.timeoutMs),
        );
        // The caller may have hung up while the channel was opening; a late listener never fires.
        if (options.signal.aborted) return onAbort();
        options.signal.addEventListener('abort', onAbort, { once: true });
        stream.on('data', (d: Buffer) => stdout.push(d));
        stream.stderr.on('data', (d: Buffer) => stderr.push(d));
        stream.on('exit', (code: number | null) => (exitCode = code));
        // 'exit' can come before the last data; 'close' comes after both.
        stream.on('close', settle);
      });
    });
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => T): Promise<T> {
  return new Promise((resolve) => {
    const abort = () => resolve(onAbort());
    signal.addEventListener('abort', abort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener('abort', abort);
      resolve(value);
    });
  });
}
