// The one row that says someone holds a run's terminal (table `terminal`, object-sql/schema.ts). The
// relay lives in memory, so an object that starts and finds this row knows a restart cut the terminal.

/** What the row holds. */
export type HeldRow = { holder: string; level: number; openedAt: number; started: boolean };

/** The `terminal` row of one run's object. */
export class TerminalRow {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** `holder` asked for the terminal at `level`; the login is not up yet. */
  hold(holder: string, level: number): void {
    this.sql.exec(
      'INSERT OR REPLACE INTO terminal (singleton, holder, level, opened_at, started) VALUES (1, ?, ?, ?, 0)',
      holder,
      level,
      Date.now(),
    );
  }

  /** The login is up: the session's time starts now. */
  started(at: number): void {
    this.sql.exec('UPDATE terminal SET started = 1, opened_at = ?', at);
  }

  /** Nobody holds it any more. */
  clear(): void {
    this.sql.exec('DELETE FROM terminal');
  }

  /** The row left by the object before a restart, taken off; null when there is none. */
  takeStale(): HeldRow | null {
    const row = this.sql
      .exec<{ holder: string; level: number; opened_at: number; started: number }>(
        'SELECT holder, level, opened_at, started FROM terminal',
      )
      .toArray()[0];
    if (!row) return null;
    this.clear();
    return { holder: row.holder, level: row.level, openedAt: row.opened_at, started: row.started === 1 };
  }
}
