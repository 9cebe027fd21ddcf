// The D1 mirror's outbox, in the Durable Object's SQLite. Rows for D1 are queued in the same
// transaction as the step they describe and sent after, so a D1 outage delays the index but never
// loses a row, never fails an action that was applied, and never stops the run. The run row is not
// queued: every flush upserts it from the object's current truth, so D1 converges to it.
import type { MirrorRows } from '../d1-mirror.ts';
import { emptyRows } from '../d1-mirror.ts';
import { errorText } from '../error-text.ts';

type Kind = keyof MirrorRows;
const KINDS: readonly Kind[] = ['llmCalls', 'executions', 'commands'];

/** Outbox entries (a step's rows each) sent in one D1 batch; more go in further batches of the same flush. */
const BATCH_ENTRIES = 100;
/** The longest wait between two tries while D1 keeps failing. */
const MAX_RETRY_MS = 60_000;
/** A D1 batch that has not answered in this long counts as failed and is tried again (it is idempotent). */
export const D1_SEND_TIMEOUT_MS = 30_000;

/** `work`, or a rejection once `ms` pass: a D1 call that never answers must not hold every later flush. */
function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`D1 did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** What a flush did: everything is in D1, or it failed and should be tried again at `retryAt`. */
export type FlushResult = { ok: true; sent: number } | { ok: false; sent: number; retryAt: number; error: string };

/** Queued D1 rows and the bookkeeping of their delivery. */
export class D1Outbox {
  private readonly sql: SqlStorage;
  private flushing: Promise<FlushResult> | null = null;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /**
   * Queues a step's rows as one entry (one write, not one per row); call it inside the transaction
   * that stores the events they come from.
   */
  add(rows: MirrorRows): void {
    if (KINDS.every((kind) => rows[kind].length === 0)) return;
    this.sql.exec("INSERT INTO outbox (kind, row) VALUES ('step', ?)", JSON.stringify(rows));
  }

  /** Notes that the run row changed, so the next flush must send it even with no rows queued. */
  touch(): void {
    this.sql.exec('UPDATE outbox_state SET version = version + 1');
  }

  /** Outbox entries still waiting for D1 (the rows of one step each). */
  pending(): number {
    return this.sql.exec<{ n: number }>('SELECT count(*) AS n FROM outbox').one().n;
  }

  /** Whether D1 lacks anything this object holds. */
  behind(): boolean {
    const state = this.sql
      .exec<{ version: number; flushed: number }>('SELECT version, flushed FROM outbox_state')
      .one();
    return state.version > state.flushed || this.pending() > 0;
  }

  /**
   * Hands every queued row to `send` (which writes them with the run row) in batches; never throws.
   * A caller that finds a flush in progress waits for it, then flushes what is left, so nothing
   * touched meanwhile is left behind.
   */
  async flush(send: (rows: MirrorRows) => Promise<void>, baseRetryMs: number, now: () => number): Promise<FlushResult> {
    while (this.flushing) await this.flushing;
    if (!this.behind()) return { ok: true, sent: 0 };
    this.flushing = this.drain(send, baseRetryMs, now);
    try {
      return await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  private async drain(
    send: (rows: MirrorRows) => Promise<void>,
    baseRetryMs: number,
    now: () => number,
  ): Promise<FlushResult> {
    let sent = 0;
    for (;;) {
      const version = this.sql.exec<{ version: number }>('SELECT version FROM outbox_state').one().version;
      const queued = this.sql
        .exec<{ id: number; kind: string; row: string }>(
          'SELECT id, kind, row FROM outbox ORDER BY id LIMIT ?',
          BATCH_ENTRIES,
        )
        .toArray();
      const rows = emptyRows();
      for (const entry of queued) {
        // A step's rows together; objects from before steps were queued whole hold one row per entry.
        if (entry.kind === 'step') {
          const step = JSON.parse(entry.row) as MirrorRows;
          for (const kind of KINDS) (rows[kind] as unknown[]).push(...step[kind]);
        } else {
          (rows[entry.kind as Kind] as unknown[]).push(JSON.parse(entry.row));
        }
      }
      try {
        // A flush waits for the one before it, so one that hung would leave D1 behind for the object's whole life.
        await withinTime(send(rows), D1_SEND_TIMEOUT_MS);
      } catch (err) {
        const failures = this.sql
          .exec<{ failures: number }>('UPDATE outbox_state SET failures = failures + 1 RETURNING failures')
          .one().failures;
        const retryAt = now() + Math.min(baseRetryMs * 2 ** (failures - 1), MAX_RETRY_MS);
        return { ok: false, sent, retryAt, error: errorText(err) };
      }
      const last = queued.at(-1)?.id;
      if (last !== undefined) this.sql.exec('DELETE FROM outbox WHERE id <= ?', last);
      this.sql.exec('UPDATE outbox_state SET flushed = max(flushed, ?), failures = 0', version);
      sent += queued.length;
      if (!this.behind()) return { ok: true, sent };
    }
  }
}
