// The holder's side of a run's shared terminal, for `attach` and `play`: takes the terminal over the
// run's socket, pipes the person's keys out and the shell's bytes (terminal_output events) in, follows
// the `terminal` state messages (a human run's terminal reopens at the next level) and says how it ended.
import { ScreenDecoder } from '../../schema/screen-bytes.ts';
import type { ClientMessage, PendingAction, RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { serverMessageSchema } from '../../schema/protocol.ts';
import type { RunStatus } from '../../schema/run.ts';
import { FINAL_STATUSES, HUMAN_MODEL } from '../../schema/run.ts';
import { RunSocketClient } from '../../schema/run-socket-client.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import type { TerminalEndReason } from '../../schema/terminal.ts';
import { readKeys } from './keys.ts';
import type { RawTerminal } from './raw-terminal.ts';
import { sizeOf } from './raw-terminal.ts';

/** How a session ended, which the command turns into an exit code. */
export type SessionEnd =
  | { kind: 'detached' }
  | { kind: 'held'; by: string }
  | { kind: 'closed'; reason: TerminalEndReason | null; message: string }
  | { kind: 'run_ended'; status: RunStatus }
  | { kind: 'refused'; message: string };

/** Where the shell's bytes are written, and the size of the screen they are shown on. */
export type TerminalOutput = { write(bytes: Uint8Array): unknown; readonly columns?: number; readonly rows?: number };

type TakeoverEnded = Extract<RunEvent, { type: 'takeover_ended' }>;

export type TerminalSessionOptions = {
  runId: string;
  /** Opens the run's socket from `since` (ApiClient.socket). */
  open: (since: number) => WebSocket;
  terminal: RawTerminal;
  /** Where the shell's bytes go (stdout) and its size (sent with the takeover and on each resize). */
  output: TerminalOutput;
  /** A line for the person, on stderr: the detach hint, why the terminal closed, a level solved. */
  notice: (line: string) => void;
  /** A pause that is not the person's turn (a human run's start password): answered here, or refused. */
  answerPause?: (pending: PendingAction) => Promise<void>;
};

const isHuman = (s: RunViewState) => s.run?.config.model === HUMAN_MODEL;
const isFinal = (s: RunViewState) => s.run !== null && FINAL_STATUSES.includes(s.run.status);
/** How long a closed terminal's reason (its takeover_ended event) may trail the state message. */
const REASON_WAIT_MS = 3000;
/** How long a detach waits for the server to close the terminal before leaving anyway. */
const DETACH_WAIT_MS = 10_000;
/** A human run paused for the person's turn with the terminal still closed this long is taken again. */
const RETAKE_WAIT_MS = 3000;

/** One person holding one run's terminal until they detach, it closes, or the run ends. */
export class TerminalSession {
  /** Decodes the session's bytes in order (a character split between two events stays whole). */
  private readonly screen = new ScreenDecoder();
  private readonly options: TerminalSessionOptions;
  private follower: RunSocketClient | null = null;
  private ws: WebSocket | null = null;
  private holding = false;
  /** A takeover was sent; until the terminal opens, it waits on the socket that sent it. */
  private asked = false;
  private everHeld = false;
  private detaching = false;
  /** Who holds the terminal (or waits for it) as the latest `terminal` message said. */
  private holder: string | null = null;
  /** Output events after this seq are this session's: the log before the takeover is not replayed. */
  private outputFrom = Number.POSITIVE_INFINITY;
  private lostHold: ReturnType<typeof setTimeout> | null = null;
  private retake: ReturnType<typeof setTimeout> | null = null;
  private finish: (end: SessionEnd) => void = () => {};

  constructor(options: TerminalSessionOptions) {
    this.options = options;
  }

  /** Connects, takes the terminal when the run allows it, and resolves once the session is over. */
  async run(): Promise<SessionEnd> {
    const ended = new Promise<SessionEnd>((resolve) => {
      this.finish = (end) => {
        this.finish = () => {};
        resolve(end);
      };
    });
    const follower = new RunSocketClient({
      open: (since) => this.connect(since),
      onEvent: (event, state) => this.onEvent(event, state),
      onState: (state) => this.onState(state),
      // The terminal (or the request for it) belongs to the socket: a drop loses it. Between a human
      // run's levels nothing is held, and the next human_turn is taken again on the new socket.
      onConnection: (c) => {
        if (c === 'reconnecting' && (this.holding || (this.asked && !this.everHeld)))
          this.finish({ kind: 'closed', reason: null, message: 'the connection to the stack dropped' });
      },
    });
    this.follower = follower;
    follower.start();
    try {
      const end = await Promise.race([ended, this.takeWhenReady(follower)]);
      return end ?? (await ended);
    } finally {
      this.options.terminal.restore();
      for (const t of [this.lostHold, this.retake]) if (t) clearTimeout(t);
      follower.close();
    }
  }

  /** Waits for a state the terminal can be taken in (a human run: the person's turn), then asks for it. */
  private async takeWhenReady(follower: RunSocketClient): Promise<SessionEnd | undefined> {
    for (;;) {
      const view = await follower.waitFor((s) => isFinal(s) || !isHuman(s) || s.pending !== null);
      if (isFinal(view)) return { kind: 'run_ended', status: view.run!.status };
      const pending = view.pending;
      if (!isHuman(view) || pending?.reason === 'human_turn' || pending?.reason === 'takeover') break;
      if (!pending || !this.options.answerPause)
        return { kind: 'refused', message: `the run waits for an answer (${pending?.reason}); answer it with watch` };
      await this.options.answerPause(pending);
      await follower.waitFor((s) => s.pending === null || isFinal(s));
    }
    const now = follower.view;
    this.options.notice(
      isHuman(now) ? 'taking the terminal…' : 'taking the terminal (the agent pauses after its current step)…',
    );
    this.outputFrom = now.lastSeq;
    this.takeover();
    return undefined;
  }

  private connect(since: number): WebSocket {
    const ws = this.options.open(since);
    this.ws = ws;
    ws.addEventListener('message', (m) => {
      if (this.ws !== ws) return;
      let json: unknown;
      try {
        json = JSON.parse(String(m.data));
      } catch {
        return;
      }
      const parsed = serverMessageSchema.safeParse(json);
      if (parsed.success) this.onMessage(parsed.data);
    });
    return ws;
  }

  private send(message: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  private takeover(): void {
    this.asked = true;
    this.send({ type: 'user_action', action: 'takeover', ...sizeOf(this.options.output) });
  }

  private onMessage(msg: ServerMessage): void {
    if (msg.type === 'terminal') {
      this.holder = msg.you ? null : msg.by;
      if (msg.open && msg.you) this.gainHold();
      else if (this.holding) this.loseHold();
    } else if (msg.type === 'error') {
      // terminal_held also refuses a queued or ended run: only a named holder makes it a conflict.
      const by = msg.code === 'terminal_held' ? (this.holder ?? heldBy(msg.message)) : null;
      if (this.everHeld) {
        // A retake that crossed the worker's own reopen is refused as held by us: nothing to say.
        if (msg.code !== 'terminal_held') this.options.notice(`the stack said: ${msg.message}`);
      } else if (by) this.finish({ kind: 'held', by });
      else this.finish({ kind: 'refused', message: msg.message });
    }
  }

  private gainHold(): void {
    if (this.lostHold) clearTimeout(this.lostHold);
    this.lostHold = null;
    if (this.holding) return;
    this.holding = true;
    this.options.terminal.start({
      keys: (text) => this.onKeys(text),
      resize: () => this.send({ type: 'terminal_resize', ...sizeOf(this.options.output) }),
      end: () => this.detach(),
    });
    if (!this.everHeld) this.options.notice(`you hold the terminal of ${this.options.runId}; Ctrl-] hands it back`);
    this.everHeld = true;
  }

  private onKeys(text: string): void {
    const { chunks, detach } = readKeys(text);
    // Between a human run's levels nobody holds the shell: keys go nowhere, but Ctrl-] still leaves.
    if (this.holding) for (const data of chunks) this.send({ type: 'terminal_input', data });
    if (detach) this.detach();
  }

  /** Hands the terminal back and leaves once the server has closed it (or at once when it is not held). */
  private detach(): void {
    if (this.detaching) return;
    this.detaching = true;
    if (!this.holding) return this.finish({ kind: 'detached' });
    this.send({ type: 'user_action', action: 'handback' });
    setTimeout(() => this.finish({ kind: 'detached' }), DETACH_WAIT_MS).unref();
  }

  /** The terminal closed under us: a detach we asked for, a human level solved, or the server's close. */
  private loseHold(): void {
    this.holding = false;
    if (this.detaching) return this.finish({ kind: 'detached' });
    // Why comes in the takeover_ended event, which may trail the state message a little.
    this.lostHold = setTimeout(() => this.closedBecause(this.lastEnded()), REASON_WAIT_MS);
  }

  private onEvent(event: RunEvent, state: RunViewState): void {
    // The screen's bytes as drawn, less what reaches past the screen (a title, the clipboard): screen-bytes.ts.
    if (event.type === 'terminal_output' && event.seq > this.outputFrom && !this.detaching)
      this.options.output.write(Buffer.from(this.screen.next(event.data), 'utf8'));
    if (event.type === 'level_complete' && event.solvedBy === 'person') {
      const figures = state.record.levels.get(event.level);
      const ms = figures?.durationMs ?? event.durationMs;
      this.options.notice(`level ${event.level} solved in ${(ms / 1000).toFixed(1)}s`);
    }
    if (event.type === 'takeover_ended' && this.everHeld && !this.holding && this.lostHold) {
      clearTimeout(this.lostHold);
      this.lostHold = null;
      this.closedBecause(event);
    }
  }

  private onState(state: RunViewState): void {
    // A run that ends while the takeover waits for the agent's step (or while held) ends the session.
    if (isFinal(state) && !this.holding && (this.everHeld || this.asked))
      return this.finish({ kind: 'run_ended', status: state.run!.status });
    if (!this.everHeld) return;
    // A human run at its next level: the worker reopens the terminal for us; if it does not, ask again.
    if (isHuman(state) && state.pending?.reason === 'human_turn' && !this.holding && !this.detaching && !this.retake)
      this.retake = setTimeout(() => {
        this.retake = null;
        if (!this.holding && !this.detaching) this.takeover();
      }, RETAKE_WAIT_MS);
  }

  private closedBecause(ended: TakeoverEnded | undefined): void {
    const view = this.follower?.view;
    // A human run's level was proved: the terminal reopens at the next level (or the run completes).
    if (ended?.reason === 'solved' && view && isHuman(view)) return;
    this.finish({ kind: 'closed', reason: ended?.reason ?? null, message: ended?.message ?? '' });
  }

  private lastEnded(): TakeoverEnded | undefined {
    const events = this.follower?.view.events ?? [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === 'takeover_ended') return e;
      if (e.type === 'takeover_started') return undefined;
    }
    return undefined;
  }
}

/** The holder named in a `terminal_held` message ("held by the web UI since …; wait …"), or null. */
function heldBy(message: string): string | null {
  return /held by (.+?)(?: since |;|$)/.exec(message)?.[1] ?? null;
}
