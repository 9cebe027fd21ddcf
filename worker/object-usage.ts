// What Cloudflare bills for one Durable Object, counted where it happens (issue 34): requests (RPC calls,
// socket upgrades, alarms), WebSocket messages received, the rows each SQL statement read and wrote (its
// cursor's counts), alarm writes, D1's rows for the run's mirror, and the time its alarm works. Counted in
// memory; a run's object saves them (the one `usage` row) as its alarm or an action ends, the turn that sets its
// alarm, so an eviction loses at most the requests since (reads, socket messages).
// The run queue counts its own the same way, in memory only (GET /api/queue).
import type { HostingUsage, UsageCounts } from '../schema/hosting.ts';
import { emptyUsageCounts } from '../schema/hosting.ts';

type UsageRow = {
  requests: number;
  socket_messages: number;
  rows_read: number;
  rows_written: number;
  alarm_writes: number;
  d1_rows_read: number;
  d1_rows_written: number;
  active_ms: number;
};

/** D1's answer to one statement, as far as the counts go. */
export type D1Meta = { meta?: { rows_read?: number; rows_written?: number } };

/** One object's billed usage; `counted()` is its SQLite, counting every statement's rows. */
export class ObjectUsage {
  private counts: UsageCounts = emptyUsageCounts();
  /** Cursors whose rows are not counted yet: a cursor has its final counts once it is read through. */
  private cursors: { rowsRead: number; rowsWritten: number }[] = [];
  /** Whether the object's tables exist, its saved counts read (attach): only then does save() write. */
  private attached = false;
  /** The object's own SQLite: the bytes it holds, and the save (its one row added by hand, not counted again). */
  private raw: SqlStorage | null = null;

  /** A request reached the object (an RPC call, a fetch, an alarm); the statements before it are counted now. */
  request(): void {
    this.collect();
    this.counts.requests++;
  }

  /** A WebSocket message reached the object. */
  socketMessage(): void {
    this.collect();
    this.counts.socketMessages++;
  }

  /** An alarm was set or deleted. */
  alarmWrite(): void {
    this.counts.alarmWrites++;
  }

  /** The alarm worked this long (its proxy calls, its mirror). */
  active(ms: number): void {
    this.counts.activeMs += Math.max(0, Math.round(ms));
  }

  /** D1 answered the mirror's statements: their rows. */
  d1(results: readonly unknown[]): void {
    for (const result of results as D1Meta[]) {
      this.counts.d1RowsRead += result?.meta?.rows_read ?? 0;
      this.counts.d1RowsWritten += result?.meta?.rows_written ?? 0;
    }
  }

  /** The object's SQLite, counting the rows each statement reads and writes; the counts are read at `collect()`. */
  counted(sql: SqlStorage): SqlStorage {
    this.raw = sql;
    return {
      exec: <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]) => {
        const cursor = sql.exec<T>(query, ...bindings);
        this.cursors.push(cursor);
        return cursor;
      },
      get databaseSize() {
        return sql.databaseSize;
      },
      Cursor: sql.Cursor,
      Statement: sql.Statement,
    };
  }

  /**
   * Adds the rows of the statements run since the last collect. Call it where no cursor is still being read
   * (after a step's transaction, at a mirror): a cursor counts the rows it has stepped through so far.
   */
  collect(): void {
    for (const cursor of this.cursors) {
      this.counts.rowsRead += cursor.rowsRead;
      this.counts.rowsWritten += cursor.rowsWritten;
    }
    this.cursors = [];
  }

  /** Reads the saved counts into these (the object's storage is ready: its parts are made); `sql` is the counted one. */
  attach(sql: SqlStorage): void {
    this.attached = true;
    const row = sql.exec<UsageRow>('SELECT * FROM usage WHERE singleton = 1').toArray()[0];
    if (!row) return;
    const c = this.counts;
    c.requests += row.requests;
    c.socketMessages += row.socket_messages;
    c.rowsRead += row.rows_read;
    c.rowsWritten += row.rows_written;
    c.alarmWrites += row.alarm_writes;
    c.d1RowsRead += row.d1_rows_read;
    c.d1RowsWritten += row.d1_rows_written;
    c.activeMs += row.active_ms;
  }

  /** Saves the counts, its own row written among them. Nothing before attach(). */
  save(): void {
    if (!this.attached || !this.raw) return;
    this.collect();
    const c = this.counts;
    c.rowsWritten += 1;
    this.raw.exec(
      `INSERT INTO usage (singleton, requests, socket_messages, rows_read, rows_written, alarm_writes, d1_rows_read,
         d1_rows_written, active_ms) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (singleton) DO UPDATE SET requests = excluded.requests, socket_messages = excluded.socket_messages,
         rows_read = excluded.rows_read, rows_written = excluded.rows_written, alarm_writes = excluded.alarm_writes,
         d1_rows_read = excluded.d1_rows_read, d1_rows_written = excluded.d1_rows_written, active_ms = excluded.active_ms`,
      c.requests,
      c.socketMessages,
      c.rowsRead,
      c.rowsWritten,
      c.alarmWrites,
      c.d1RowsRead,
      c.d1RowsWritten,
      c.activeMs,
    );
  }

  /** The counts so far with the bytes the object's SQLite holds now. */
  view(): HostingUsage {
    this.collect();
    return { ...this.counts, storedBytes: this.raw?.databaseSize ?? 0 };
  }
}
