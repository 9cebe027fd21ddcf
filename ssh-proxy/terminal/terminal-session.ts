// One held terminal: the worker's relay socket on one side, an SSH login with a PTY as the level's
// user on the other. Frames are validated (a bad one closes 1008 saying what was wrong); the output
// goes back as base64 and is watched for the next password. The password is never logged or echoed.
import ssh2 from 'ssh2';
import type { WebSocket } from 'ws';
import { describeIssues } from '../../schema/issues.ts';
import type { Target } from '../../schema/levels.ts';
import { targetSchema } from '../../schema/levels.ts';
import type { RelayFromProxy, RelayToProxy } from '../../schema/terminal.ts';
import { relayToProxySchema, terminalSizeSchema } from '../../schema/terminal.ts';
import { classifySshError } from '../ssh/ssh-failure.ts';
import { worldEnv } from '../ssh/world-env.ts';
import { worldProblem } from '../../schema/worlds.ts';
import type { GameTarget } from '../targets/target.ts';
import type { LoginOracle } from './password-proof.ts';
import { PasswordProof } from './password-proof.ts';

/** What a session needs from the proxy: the targets, a login check and the SSH handshake's limit. */
export type TerminalDeps = {
  targets: Record<Target, GameTarget>;
  /** Logs in once as `level` of `target` with `password`, and logs out: the login oracle. */
  oracle: (target: GameTarget, level: number, password: string) => Promise<boolean>;
  connectTimeoutMs: number;
  /** Called once the first frame named the run, so the relay keeps one terminal per run. */
  onOpen: (runId: string, session: TerminalSession) => void;
  onEnd: (runId: string, session: TerminalSession) => void;
};

/** Raw bytes per output frame: 96 KiB is 128 KiB of base64, the limit of terminalBytesSchema. */
const MAX_CHUNK_BYTES = 96 * 1024;
/** Keystrokes held while the login is still being made. */
const MAX_EARLY_INPUT = 64 * 1024;
/** Output frames not yet written to the socket before the shell is paused (a flood is slowed, not kept). */
const HIGH_WATER_FRAMES = 64;
/** How long a handback waits for the logins still trying a word the session showed. */
const PROOF_DRAIN_MS = 5_000;
/** A socket that names no login within this time is closed: nothing waits on a silent peer. */
export const OPEN_WITHIN_MS = 10_000;
/** A WebSocket close reason holds at most 123 bytes. */
const MAX_REASON_BYTES = 123;

type TunableClient = ssh2.Client & { setNoDelay(noDelay?: boolean): void };

export class TerminalSession {
  private readonly socket: WebSocket;
  private readonly deps: TerminalDeps;
  private runId: string | null = null;
  private client: TunableClient | null = null;
  private stream: ssh2.ClientChannel | null = null;
  private early = '';
  private ended = false;
  private unsent = 0;
  private proof: PasswordProof | null = null;
  /** Waiting for the last password logins before the end (endAfterProof). */
  private finishing = false;

  constructor(socket: WebSocket, deps: TerminalDeps) {
    this.socket = socket;
    this.deps = deps;
    const silent = setTimeout(() => this.runId === null && this.refuse('no open frame came in time'), OPEN_WITHIN_MS);
    socket.on('message', (data, isBinary) => this.onFrame(data.toString(), isBinary));
    socket.on('close', () => {
      clearTimeout(silent);
      this.end(null);
    });
    socket.on('error', () => this.end(null));
  }

  /**
   * Ends the terminal: says why in a `closed` frame (when there is something to say), logs out, and
   * closes the socket (1000, or 1008 with the reason for a frame that broke the protocol).
   */
  end(message: string | null, close = { code: 1000, reason: message ?? '' }): void {
    if (this.ended) return;
    this.ended = true;
    if (message !== null) this.send({ type: 'closed', message });
    this.client?.end();
    if (this.socket.readyState <= 1) this.socket.close(close.code, closeReason(close.reason));
    if (this.runId) this.deps.onEnd(this.runId, this);
  }

  private onFrame(text: string, isBinary: boolean): void {
    if (this.ended) return;
    if (isBinary) return this.refuse('send JSON text frames, not binary');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.refuse('the frame is not JSON');
    }
    const parsed = relayToProxySchema.safeParse(json);
    if (!parsed.success) return this.refuse(`bad frame: ${describeIssues(parsed.error)}`);
    const frame = parsed.data;
    if (this.runId === null && frame.type !== 'open') return this.refuse('the first frame must be {"type":"open",...}');
    if (this.runId !== null && frame.type === 'open') return this.refuse('this terminal is already open');
    this.act(frame);
  }

  private act(frame: RelayToProxy): void {
    switch (frame.type) {
      case 'open':
        return this.open(frame);
      case 'input':
        if (this.stream) this.stream.write(frame.data);
        else if (this.early.length + frame.data.length <= MAX_EARLY_INPUT) this.early += frame.data;
        return;
      case 'resize':
        this.stream?.setWindow(frame.rows, frame.cols, 0, 0);
        return;
      case 'close':
        return void this.endAfterProof(null);
    }
  }

  /**
   * A handback or the shell's end: the output stops, then the logins still being tried for a word the
   * session showed finish (at most PROOF_DRAIN_MS), so a `proved` is never lost to a quick handback or
   * an `exit`, then the end (with `message`, if any, as the closed frame).
   */
  private async endAfterProof(message: string | null): Promise<void> {
    if (this.finishing || this.ended) return;
    this.finishing = true;
    this.stream?.removeAllListeners('data');
    this.stream?.stderr.removeAllListeners('data');
    // Keys sent after the handback go nowhere.
    this.stream = null;
    const proof = this.proof;
    if (proof) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PROOF_DRAIN_MS);
      });
      await Promise.race([proof.finish(), late]);
      clearTimeout(timer);
    }
    this.end(message);
  }

  private open(frame: Extract<RelayToProxy, { type: 'open' }>): void {
    const target = targetSchema.safeParse(frame.target);
    if (!target.success) return this.refuse(`unknown target "${frame.target}"; use practice or bandit`);
    const game = this.deps.targets[target.data];
    const worldRefused = frame.world === undefined ? null : worldProblem(target.data, 'private');
    if (worldRefused) return this.refuse(worldRefused);
    const size = terminalSizeSchema.safeParse({ cols: frame.cols, rows: frame.rows });
    if (!size.success) return this.refuse(`bad size: ${describeIssues(size.error)}`);
    // Level 0's password is public; every other level's comes from the run.
    const password = frame.password ?? (frame.level === 0 ? 'bandit0' : null);
    if (password === null) return this.refuse(`give level ${frame.level}'s password; only level 0's is known`);
    this.runId = frame.runId;
    this.deps.onOpen(frame.runId, this);
    const user = game.username(frame.level);
    const oracle: LoginOracle = (word) => this.deps.oracle(game, frame.level + 1, word);
    this.proof = new PasswordProof(password, oracle, (proved) =>
      this.send({ type: 'proved', level: frame.level, password: proved }),
    );
    const client = new ssh2.Client() as TunableClient;
    this.client = client;
    client
      .on('ready', () => this.shell(client, size.data, frame.world))
      .on('error', (err) => {
        const why = classifySshError(err, `${user}@${game.host}:${game.port}`).message;
        this.end(this.stream ? `the SSH connection failed: ${why}` : `the login as ${user} failed: ${why}`);
      })
      .on('close', () => this.finishing || this.end('the SSH connection closed'));
    client.connect({
      host: game.host,
      port: game.port,
      username: user,
      password,
      readyTimeout: this.deps.connectTimeoutMs,
      tryKeyboard: false,
      keepaliveInterval: 15_000,
    });
    client.setNoDelay(true);
  }

  /** Opens the PTY shell, in the run's private world when it has one (`world`, its key). */
  private shell(client: ssh2.Client, size: { cols: number; rows: number }, world: string | undefined): void {
    if (this.ended) return void client.end();
    // The env goes in the options argument: ssh2 takes a window argument holding `env` for options, and no PTY.
    const window = { term: 'xterm-256color', cols: size.cols, rows: size.rows };
    client.shell(window, { env: worldEnv(world) }, (err, stream) => {
      if (err) return this.end(`the server refused a terminal: ${err.message}`);
      if (this.ended) return void client.end();
      this.stream = stream;
      this.send({ type: 'opened' });
      const out = (data: Buffer) => this.output(data, stream);
      stream.on('data', out);
      stream.stderr.on('data', out);
      let exit: number | null = null;
      stream.on('exit', (code: number | null) => (exit = code));
      // `cat` the password, then `exit`: the login still trying that word must finish first.
      stream.on(
        'close',
        () => void this.endAfterProof(exit === null ? 'the shell ended' : `the shell ended (exit ${exit})`),
      );
      if (this.early) stream.write(this.early);
      this.early = '';
    });
  }

  private output(data: Buffer, stream: ssh2.ClientChannel): void {
    this.proof?.scan(data.toString('latin1'));
    for (let at = 0; at < data.length; at += MAX_CHUNK_BYTES) {
      const piece = data.subarray(at, at + MAX_CHUNK_BYTES);
      this.unsent += 1;
      this.send({ type: 'output', data: piece.toString('base64') }, () => {
        this.unsent -= 1;
        if (this.unsent < HIGH_WATER_FRAMES / 4) stream.resume();
      });
    }
    if (this.unsent >= HIGH_WATER_FRAMES) stream.pause();
  }

  private send(message: RelayFromProxy, done?: () => void): void {
    if (this.socket.readyState !== 1) return done?.();
    this.socket.send(JSON.stringify(message satisfies RelayFromProxy), () => done?.());
  }

  /** A frame that breaks the protocol closes the socket with 1008 and says what was wrong. */
  private refuse(reason: string): void {
    this.end(null, { code: 1008, reason });
  }
}

/** Cuts a close reason to the 123 bytes a WebSocket close frame holds. */
function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > MAX_REASON_BYTES) reason = reason.slice(0, -1);
  return reason;
}
