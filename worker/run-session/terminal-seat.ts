// Who holds a run's terminal, and its life: asked for (the agent pauses after its current node),
// open (bytes relayed and stored as events), and closed (handback, idle, stop, restart, the shell
// ending). One socket types; every other socket watches. The row in `terminal` exists while a
// terminal is asked for or open, so an object that restarts finds and ends it (docs/protocol.md).
import { worldKeyOf } from '../../schema/worlds.ts';
import type { BreakKind } from '../../schema/protocol.ts';
import type { RunAction } from '../../schema/run.ts';
import { FINAL_STATUSES, HUMAN_MODEL } from '../../schema/run.ts';
import type { TerminalEndReason, TerminalSize, TerminalState } from '../../schema/terminal.ts';
import { DEFAULT_TERMINAL_SIZE } from '../../schema/terminal.ts';
import { readSettings } from '../env.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { RunSchedule } from './run-schedule.ts';
import type { RunSockets } from './run-sockets.ts';
import type { RunStore } from './run-store.ts';
import { getState, send, setState } from './sockets.ts';
import { TerminalRelay } from './terminal-relay.ts';
import { TerminalRow } from './terminal-row.ts';
import { IdleClock } from './idle-clock.ts';
import { ScreenTail } from './screen-tail.ts';

/** A person who asked for the terminal: their name, the tag of their socket, their screen's size. */
type Holder = { by: string; tag: string; size: TerminalSize };

type Open = Holder & {
  level: number;
  openedAt: number;
  relay: TerminalRelay | null;
  /** The proxy said the login is up and takeover_started is stored. */
  started: boolean;
  proved: { level: number; password: string } | null;
  /** The end of the screen as text, for the note the agent gets at handback. */
  tail: ScreenTail;
  /** Lines entered (Enter presses): the level's commands, counted without keeping what was typed. */
  commands: number;
  /** A handback waits for the proxy to finish; the relay's close is then not a loss. */
  handingBack: boolean;
  /** Bytes of output stored in this session (MAX_SESSION_OUTPUT_BYTES). */
  outputBytes: number;
  /** The holder's new size, stored with the next chunk so watchers and replays follow it. */
  resized: TerminalSize | null;
};

/** What the seat needs of its run's object. */
export type SeatDeps = {
  ctx: DurableObjectState;
  env: Env;
  store: RunStore;
  life: RunLifecycle;
  sockets: RunSockets;
  schedule: RunSchedule;
  /** Applies an action as a person's (continue, password, message), the same path REST takes. */
  act: (action: RunAction, by: string) => Promise<{ ok: boolean }>;
  /** Asks the proxy to end the run's call in progress at its next node boundary. */
  breakCall: (kind: BreakKind) => void;
};

/** The most output one session stores; past it the terminal closes (a person can take it again). */
const MAX_SESSION_OUTPUT_BYTES = 16 * 2 ** 20;
/** The longest a handback waits for the proxy's last logins (the proxy itself gives them 5 s). */
const DRAIN_MS = 6_000;
/** One run's terminal seat. Memory holds the relay; SQLite holds that someone holds it. */
export class TerminalSeat {
  private readonly deps: SeatDeps;
  private readonly row: TerminalRow;
  private waiting: Holder | null = null;
  private open: Open | null = null;
  /** A human run's player, whose terminal opens again at the next level. */
  private reopen: Holder | null = null;
  /** Keystrokes against TERMINAL_IDLE_MS. */
  private readonly idle: IdleClock;

  constructor(deps: SeatDeps) {
    this.deps = deps;
    this.row = new TerminalRow(deps.ctx.storage.sql);
    this.idle = new IdleClock(deps.schedule, deps.ctx, deps.env);
  }

  /** Whether a takeover waits for the agent to pause: the next proxy call must break in at once. */
  get breakWanted(): boolean {
    return this.waiting !== null;
  }

  /**
   * Ends a terminal that a restart cut: the row is there, the relay (memory) is not. Once, as the object
   * starts. A terminal that had opened gets its takeover_ended; one still waiting for the agent is gone.
   */
  endStale(): void {
    const row = this.row.takeStale();
    if (!row) return;
    if (row.started) {
      this.deps.life.record(
        {
          type: 'takeover_ended',
          level: row.level,
          by: row.holder,
          reason: 'restart',
          durationMs: Math.max(0, Date.now() - row.openedAt),
          message: 'the stack restarted while the terminal was open; the run stays paused: take it again or continue',
        },
        Date.now(),
      );
    }
    // Sockets that slept through the restart (hibernation) learn that nobody holds it now.
    this.changed();
  }

  /** The terminal as `ws` sees it. */
  view(ws: WebSocket): TerminalState {
    const holder = this.open ?? this.waiting;
    return {
      open: this.open?.started ?? false,
      by: holder?.by ?? null,
      you: holder !== null && getState(ws).seat === holder.tag,
      level: this.open?.level ?? null,
      size: holder?.size ?? null,
    };
  }

  /** Gives `ws` the terminal, or says why not (someone holds it, the run cannot have one). */
  async takeover(ws: WebSocket, by: string, size: Partial<TerminalSize>): Promise<string | null> {
    const run = this.deps.store.summary();
    if (!run) return 'no such run';
    const holder = this.open ?? this.waiting;
    if (holder) {
      const since = this.open ? ` since ${new Date(this.open.openedAt).toISOString()}` : '';
      return `the terminal is held by ${holder.by}${since}; wait until it is handed back`;
    }
    if (FINAL_STATUSES.includes(run.status)) return `the run is already ${run.status}; it has no terminal`;
    if (run.status === 'queued') return 'the run is queued; take the terminal once it has started';
    const human = run.config.model === HUMAN_MODEL;
    if (human && run.status !== 'paused_for_user_action')
      return 'the level is being checked; take the terminal at your turn (the run pauses for you in a moment)';
    const settings = readSettings(this.deps.env);
    if (!settings.ok) return settings.message;
    // Taken before any await, so two sockets racing cannot both hold it.
    const tag = crypto.randomUUID();
    setState(ws, { ...getState(ws), seat: tag });
    const asked: Holder = {
      by,
      tag,
      size: { cols: size.cols ?? DEFAULT_TERMINAL_SIZE.cols, rows: size.rows ?? DEFAULT_TERMINAL_SIZE.rows },
    };
    this.row.hold(asked.by, run.currentLevel);
    // A pause the graph asked for takes the handback's answer (a note, or the proved password). One it did
    // not ask for (a person's pause, a proxy outage) is let go and asked again: the next call breaks in
    // before its first node, so the graph pauses for the takeover and the handback has a question to answer.
    const graphAsked = this.deps.store.agentPlace().checkpoint?.interrupt !== undefined;
    if (run.status === 'paused_for_user_action' && (graphAsked || human)) {
      await this.openFor(asked);
    } else {
      this.waiting = asked;
      this.changed();
      if (run.status === 'paused_for_user_action') await this.deps.act({ action: 'continue' }, by);
      else this.deps.breakCall('takeover');
    }
    return null;
  }

  /** After a proxy call or a pause: opens a terminal that waited for the agent, or ends one the run outlived. */
  async afterCall(): Promise<void> {
    const run = this.deps.store.summary();
    if (!run) return;
    if (FINAL_STATUSES.includes(run.status)) {
      this.reopen = null;
      return this.end('stopped');
    }
    if (run.status !== 'paused_for_user_action') return;
    const reason = this.deps.store.pendingAction()?.reason;
    if (this.waiting) {
      const asked = this.waiting;
      this.waiting = null;
      return this.openFor(asked);
    }
    if (this.open) return;
    if (reason === 'human_turn' && this.reopen) {
      const player = this.reopen;
      this.reopen = null;
      const still = this.deps.ctx.getWebSockets().find((ws) => getState(ws).seat === player.tag);
      if (still) return this.openFor(player);
    }
    // A takeover handed back before the agent had paused for it: nobody needs the pause.
    if (reason === 'takeover') await this.deps.act({ action: 'continue' }, 'the run itself (a takeover withdrawn)');
  }

  /** Keystrokes from `ws`; refused unless `ws` holds the open terminal. */
  input(ws: WebSocket, data: string): string | null {
    const open = this.holding(ws);
    if (typeof open === 'string') return open;
    open.relay?.send({ type: 'input', data });
    open.commands += data.match(/\r\n?|\n/g)?.length ?? 0;
    this.idle.touch(Date.now());
    return null;
  }

  /** The holder's screen changed size. */
  resize(ws: WebSocket, size: TerminalSize): string | null {
    const open = this.holding(ws);
    if (typeof open === 'string') return open;
    open.size = size;
    open.resized = size;
    open.relay?.send({ type: 'resize', ...size });
    return null;
  }

  /**
   * Closes the terminal and lets the agent go on: with the password the session proved (the level is
   * then solved by the person), else with a note of the session as a lesson. A human run stays paused.
   */
  async handback(by: string): Promise<string | null> {
    const open = this.open;
    if (!open && !this.waiting)
      return 'the terminal is not open, so there is nothing to hand back; the run waits for you: continue lets the agent go on, or take the terminal again';
    if (open?.handingBack) return null;
    if (!open || !this.deps.store.summary()) {
      this.end('handback');
      return null;
    }
    // The proxy may still be trying a word the session showed as the next login: its answer comes first.
    open.handingBack = true;
    if (open.started) await open.relay?.drain(DRAIN_MS);
    const run = this.deps.store.summary();
    if (!run || this.open !== open) return null;
    const proved = open.proved?.level === run.currentLevel ? open.proved : null;
    const seconds = Math.round((Date.now() - open.openedAt) / 1000);
    this.end('handback');
    if (run.status !== 'paused_for_user_action') return null;
    if (proved) {
      await this.deps.act({ action: 'password', value: proved.password }, by);
      return null;
    }
    if (run.config.model === HUMAN_MODEL) return null;
    const note = open.tail.note(open.level, seconds);
    const asked = this.deps.store.agentPlace().checkpoint?.interrupt !== undefined;
    // A pause the graph did not ask for (a person's pause, a proxy outage) takes no hint: the note goes as a message.
    if (asked) await this.deps.act({ action: 'continue', hint: note }, by);
    else {
      await this.deps.act({ action: 'message', text: note }, by);
      await this.deps.act({ action: 'continue' }, by);
    }
    return null;
  }

  /** The holder's socket closed: nobody can type, so the terminal closes; the run stays paused. */
  holderLeft(ws: WebSocket): void {
    const holder = this.open ?? this.waiting;
    // A handback under way finishes without its socket: the person has already said they are done.
    if (this.open?.handingBack) return;
    if (holder && getState(ws).seat === holder.tag) this.end('closed', `${holder.by} disconnected`);
  }

  /** Closes an open terminal (not one still waiting for the agent), as answering its pause does. */
  closeOpen(reason: TerminalEndReason, message?: string): void {
    if (this.open) this.end(reason, message);
  }

  /** Closes the terminal (if any) for `reason`, stores why, and tells every socket. */
  end(reason: TerminalEndReason, message?: string): void {
    const open = this.open;
    const waited = this.waiting;
    if (!open && !waited) return;
    this.open = null;
    this.waiting = null;
    this.row.clear();
    if (waited) this.tell(waited.tag, message ?? `the takeover was withdrawn (${reason}) before the terminal opened`);
    if (open) {
      this.idle.stop();
      open.relay?.close();
      if (open.started) {
        this.deps.life.record(
          {
            type: 'takeover_ended',
            level: open.level,
            by: open.by,
            reason,
            durationMs: Math.max(0, Date.now() - open.openedAt),
            ...(message ? { message } : {}),
            ...(open.proved ? { provedLevel: open.proved.level } : {}),
            commands: open.commands,
          },
          Date.now(),
        );
      } else if (message) {
        this.tell(open.tag, message);
      }
      // A session that proved its level and closed some other way (exit, idle) still proves it.
      const run = this.deps.store.summary();
      const proved = open.proved;
      if (
        proved &&
        (reason === 'closed' || reason === 'idle') &&
        run?.status === 'paused_for_user_action' &&
        proved.level === run.currentLevel
      )
        this.deps.ctx.waitUntil(this.deps.act({ action: 'password', value: proved.password }, open.by).then(() => {}));
    }
    this.changed();
  }

  private async openFor(holder: Holder): Promise<void> {
    const run = this.deps.store.summary();
    const settings = readSettings(this.deps.env);
    if (!run || !settings.ok) return this.end('closed', settings.ok ? 'no such run' : settings.message);
    const state = this.deps.store.agentPlace().checkpoint?.state as { password?: string | null } | undefined;
    const open: Open = {
      ...holder,
      level: run.currentLevel,
      openedAt: Date.now(),
      relay: null,
      started: false,
      proved: null,
      tail: new ScreenTail(),
      commands: 0,
      handingBack: false,
      outputBytes: 0,
      resized: null,
    };
    this.open = open;
    this.row.hold(holder.by, open.level);
    this.changed();
    const current = () => this.open === open;
    const worldKey = worldKeyOf(run.config);
    open.relay = await TerminalRelay.open(
      settings.settings,
      {
        type: 'open',
        runId: run.id,
        target: run.config.target,
        level: open.level,
        password: state?.password ?? null,
        cols: open.size.cols,
        rows: open.size.rows,
        // A person who takes a private-world run's terminal plays in that world, where its agent left its files.
        ...(worldKey ? { world: worldKey } : {}),
      },
      {
        opened: () => {
          if (!current()) return;
          open.started = true;
          open.openedAt = Date.now();
          this.row.started(open.openedAt);
          this.deps.life.record(
            { type: 'takeover_started', level: open.level, by: open.by, ...open.size },
            open.openedAt,
          );
          this.idle.touch(Date.now());
          this.changed();
        },
        output: (data) => {
          if (!current() || !open.started) return;
          const resized = open.resized;
          open.resized = null;
          this.deps.life.record({ type: 'terminal_output', level: open.level, data, ...(resized ?? {}) }, Date.now());
          open.tail.add(data);
          // A program that never stops printing (`yes`) must not fill the run's storage while nobody types.
          open.outputBytes += Math.floor((data.length * 3) / 4);
          if (open.outputBytes > MAX_SESSION_OUTPUT_BYTES)
            this.end(
              'closed',
              `the terminal printed more than ${MAX_SESSION_OUTPUT_BYTES / 2 ** 20} MiB; take it again`,
            );
        },
        proved: (level, password) => {
          if (!current()) return;
          open.proved = { level, password };
          if (run.config.model === HUMAN_MODEL && !open.handingBack) this.ctx().waitUntil(this.solvedByPlayer(open));
        },
        closed: (message) => {
          if (current() && !open.handingBack) this.end('closed', message);
        },
      },
    );
    if (!current()) open.relay?.close();
  }

  /** A human run's level proved: close this terminal, give the password, and open the next level's for them. */
  private async solvedByPlayer(open: Open): Promise<void> {
    if (!open.proved) return;
    this.reopen = { by: open.by, tag: open.tag, size: open.size };
    this.end('solved');
    await this.deps.act({ action: 'password', value: open.proved.password }, open.by);
  }

  private holding(ws: WebSocket): Open | string {
    const open = this.open;
    if (!open)
      return this.waiting
        ? 'the terminal is not open yet: the agent is finishing its step'
        : 'no terminal is open; take it first';
    if (getState(ws).seat !== open.tag) return `the terminal is held by ${open.by}; you are watching it`;
    if (!open.started) return 'the terminal is still opening';
    return open;
  }

  /** From the alarm: closes the terminal if nobody typed for TERMINAL_IDLE_MS. */
  idleCheck(now: number): void {
    if (!this.open) return this.idle.stop();
    const why = this.idle.expired(now);
    if (why) this.end('idle', why);
  }

  private changed(): void {
    this.deps.sockets.terminalChanged((ws) => this.view(ws));
  }

  private tell(tag: string, message: string): void {
    for (const ws of this.deps.ctx.getWebSockets())
      if (getState(ws).seat === tag) send(ws, { type: 'error', code: 'terminal_failed', message });
  }

  private ctx(): DurableObjectState {
    return this.deps.ctx;
  }
}
