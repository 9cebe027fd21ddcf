// When a run's Durable Object should wake, and for what: the agent's next advance (one POST
// /v1/advance call to the proxy), and a retry of the D1 outbox. Both share the object's one alarm,
// which is armed for the earlier of the two, so a D1 retry never cuts short the proxy's backoff and
// neither can be lost when the other fires.
type Due = { advance: boolean; mirror: boolean; terminalIdle: boolean };

/** The two wake-up times, kept in the object's SQLite so they survive eviction. */
export class RunSchedule {
  private readonly sql: SqlStorage;
  private readonly storage: DurableObjectStorage;
  /**
   * When an open terminal counts as idle (terminal-seat.ts). Memory only, like the terminal: an object
   * that restarts has ended its terminal already. The alarm runs it, since a timer of the request that
   * set it may no longer reach the run's sockets.
   */
  private terminalIdleAt: number | null = null;

  /** Told of each alarm set or deleted: a write Cloudflare bills (object-usage.ts). */
  private readonly onAlarmWrite: () => void;

  constructor(sql: SqlStorage, storage: DurableObjectStorage, onAlarmWrite: () => void = () => {}) {
    this.storage = storage;
    this.sql = sql;
    this.onAlarmWrite = onAlarmWrite;
  }

  /** The agent's next advance at `at` (epoch ms), or none. */
  nextAdvance(at: number | null): void {
    this.sql.exec('UPDATE schedule SET advance_at = ?', at);
  }

  /** The next try of the D1 outbox at `at`, or none. */
  mirror(at: number | null): void {
    this.sql.exec('UPDATE schedule SET mirror_at = ?', at);
  }

  /** The open terminal's idle deadline, or none. Call arm() after. */
  terminalIdle(at: number | null): void {
    this.terminalIdleAt = at;
  }

  /**
   * What is due at `now`. Nothing is taken off: the work itself reschedules (or clears) when it is
   * done, so work cut short by an eviction or a crash is still due when the alarm runs again.
   */
  due(now: number): Due & { advanceAt: number | null } {
    const row = this.read();
    return {
      advance: row.advance_at !== null && row.advance_at <= now,
      mirror: row.mirror_at !== null && row.mirror_at <= now,
      terminalIdle: this.terminalIdleAt !== null && this.terminalIdleAt <= now,
      advanceAt: row.advance_at,
    };
  }

  /** Clears the advance if it is still the one scheduled at `at`; an action may have set a new one meanwhile. */
  advanceDone(at: number | null): void {
    this.sql.exec('UPDATE schedule SET advance_at = NULL WHERE advance_at IS ?', at);
  }

  /** Sets the alarm for the earliest wake-up, or clears it when nothing is scheduled. */
  async arm(): Promise<void> {
    const row = this.read();
    const times = [row.advance_at, row.mirror_at, this.terminalIdleAt].filter((t): t is number => t !== null);
    this.onAlarmWrite();
    if (times.length === 0) return this.storage.deleteAlarm();
    await this.storage.setAlarm(Math.min(...times));
  }

  private read(): { advance_at: number | null; mirror_at: number | null } {
    return this.sql
      .exec<{ advance_at: number | null; mirror_at: number | null }>('SELECT advance_at, mirror_at FROM schedule')
      .one();
  }
}
