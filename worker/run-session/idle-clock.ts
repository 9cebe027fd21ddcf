// How long a person's terminal has gone without a keystroke, against TERMINAL_IDLE_MS. The object's
// alarm checks it (a timer of the request that set it may no longer reach the run's sockets), and the
// alarm is set once per deadline: a keystroke only moves the last-input time.
import { readLimits } from '../env.ts';
import type { RunSchedule } from './run-schedule.ts';

/** The idle clock of one run's open terminal. */
export class IdleClock {
  private readonly schedule: RunSchedule;
  private readonly ctx: DurableObjectState;
  private readonly env: Env;
  private lastInputAt = 0;
  /** The alarm holds a deadline for this clock. */
  private armed = false;

  constructor(schedule: RunSchedule, ctx: DurableObjectState, env: Env) {
    this.schedule = schedule;
    this.ctx = ctx;
    this.env = env;
  }

  /** A keystroke, or the terminal opening: the clock starts again. */
  touch(now: number): void {
    this.lastInputAt = now;
    if (this.armed) return;
    this.armed = true;
    this.schedule.terminalIdle(now + this.limitMs());
    this.ctx.waitUntil(this.schedule.arm());
  }

  /**
   * From the alarm: the reason to close when nobody typed for TERMINAL_IDLE_MS, else null (with the next
   * deadline set; the alarm arms for it at its end).
   */
  expired(now: number): string | null {
    const ms = this.limitMs();
    if (now - this.lastInputAt >= ms) return `nobody typed for ${Math.round(ms / 1000)} s (TERMINAL_IDLE_MS)`;
    this.schedule.terminalIdle(this.lastInputAt + ms);
    return null;
  }

  /** The terminal closed: no deadline. */
  stop(): void {
    this.armed = false;
    this.schedule.terminalIdle(null);
    this.ctx.waitUntil(this.schedule.arm());
  }

  private limitMs(): number {
    const limits = readLimits(this.env);
    return limits.ok ? limits.limits.terminalIdleMs : 600_000;
  }
}
