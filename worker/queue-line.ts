// The run queue's line, in the scheduler's SQLite: every run it knows, waiting for a slot, holding
// one, or idle (paused for a person, so holding none). Synchronous, so a decision to start runs is
// made and written in one piece and two pumps can never hand out the same slot.
import type { QueueMember } from '../schema/queue.ts';

export type { QueueMember };

type MemberRow = {
  run_id: string;
  provider: string;
  max_concurrent: number | null;
  state: QueueMember['state'];
  priority: number;
  seq: number;
  since: number;
  batch_id: string | null;
  batch_limit: number | null;
};

/** How a run joins the line. */
export type Admission = {
  /** The run's provider and that provider's limit; null keeps what the queue knew of the run. */
  provider: string | null;
  limit: number | null;
  /** Ahead of every run that has never started (a run a person continued). */
  front: boolean;
  /** The batch the run belongs to and the batch's own limit on running runs. */
  batch?: { id: string; limit: number } | null;
  /**
   * Known, not waiting: a run made paused (a fork at a pause) joins idle, so the queue keeps its provider for
   * when a person continues it.
   */
  idle?: boolean;
};

/** The provider of a run the queue has not been told one of yet: no provider limit binds it. */
const UNKNOWN_PROVIDER = 'unknown';

/** Runs waiting in this order: runs a person continued first (they were started before), then by arrival. */
const LINE_ORDER = 'ORDER BY priority, seq';

export class QueueLine {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /**
   * Puts a run in line. A run already holding a slot keeps it; a run the queue has seen before keeps
   * its provider when none is given; a run in line under no known provider takes the one given.
   */
  admit(runId: string, { provider, limit, front, batch = null, idle = false }: Admission, now: number): void {
    const known = this.row(runId);
    if (known?.state === 'running' || known?.state === 'waiting') {
      // Continued before its own admission came (a fork made paused, run-launch.ts): it learns its provider now.
      if (provider !== null && known.provider === UNKNOWN_PROVIDER)
        this.sql.exec('UPDATE members SET provider = ?, max_concurrent = ? WHERE run_id = ?', provider, limit, runId);
      return;
    }
    const seq = this.sql.exec<{ next: number }>('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM members').one().next;
    this.sql.exec(
      'INSERT OR REPLACE INTO members (run_id, provider, max_concurrent, state, priority, seq, since, batch_id, batch_limit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      runId,
      provider ?? known?.provider ?? UNKNOWN_PROVIDER,
      provider !== null ? limit : (known?.max_concurrent ?? null),
      idle ? 'idle' : 'waiting',
      front ? 0 : 1,
      seq,
      now,
      batch?.id ?? known?.batch_id ?? null,
      batch?.limit ?? known?.batch_limit ?? null,
    );
  }

  /** The run holds no slot any more: idle while paused, forgotten once it has ended. */
  release(runId: string, { ended }: { ended: boolean }): void {
    if (ended) this.sql.exec('DELETE FROM members WHERE run_id = ?', runId);
    else this.sql.exec("UPDATE members SET state = 'idle' WHERE run_id = ?", runId);
  }

  /**
   * Starts every waiting run that fits, in line order: under `maxRunning` in all and under its
   * provider's limit. A run whose provider is full does not hold up the runs of other providers.
   */
  take(maxRunning: number, now: number, heldBatches: ReadonlySet<string> = new Set()): string[] {
    const running = this.sql
      .exec<{ provider: string; n: number }>(
        "SELECT provider, COUNT(*) AS n FROM members WHERE state = 'running' GROUP BY provider",
      )
      .toArray();
    const perProvider = new Map(running.map((r) => [r.provider, r.n]));
    const batches = this.sql
      .exec<{ batch_id: string; n: number }>(
        "SELECT batch_id, COUNT(*) AS n FROM members WHERE state = 'running' AND batch_id IS NOT NULL GROUP BY batch_id",
      )
      .toArray();
    const perBatch = new Map(batches.map((r) => [r.batch_id, r.n]));
    let total = running.reduce((sum, r) => sum + r.n, 0);
    const started: string[] = [];
    if (total >= maxRunning) return started;
    const waiting = this.sql.exec<MemberRow>(`SELECT * FROM members WHERE state = 'waiting' ${LINE_ORDER}`).toArray();
    for (const row of waiting) {
      if (total >= maxRunning) break;
      const used = perProvider.get(row.provider) ?? 0;
      if (row.max_concurrent !== null && used >= row.max_concurrent) continue;
      const inBatch = row.batch_id ? (perBatch.get(row.batch_id) ?? 0) : 0;
      if (row.batch_id && row.batch_limit !== null && inBatch >= row.batch_limit) continue;
      // A batch whose cost cap is reached starts nothing more until the cap is raised.
      if (row.batch_id && heldBatches.has(row.batch_id)) continue;
      this.sql.exec("UPDATE members SET state = 'running', since = ? WHERE run_id = ?", now, row.run_id);
      perProvider.set(row.provider, used + 1);
      if (row.batch_id) perBatch.set(row.batch_id, inBatch + 1);
      total += 1;
      started.push(row.run_id);
    }
    return started;
  }

  /** Every run the queue holds: running ones first, then the line in order with places. */
  members(): QueueMember[] {
    const rows = this.sql
      .exec<MemberRow>(
        `SELECT run_id, provider, max_concurrent, state, since, batch_id FROM members WHERE state != 'idle' ORDER BY state = 'waiting', priority, seq`,
      )
      .toArray();
    let place = 0;
    return rows.map((r) => memberOf(r, r.state === 'waiting' ? ++place : null));
  }

  /** The runs waiting for a slot, in line order, each with its place (1 is next). */
  waiting(): QueueMember[] {
    return this.sql
      .exec<MemberRow>(`SELECT * FROM members WHERE state = 'waiting' ${LINE_ORDER}`)
      .toArray()
      .map((r, i) => memberOf(r, i + 1));
  }

  member(runId: string): QueueMember | null {
    const row = this.row(runId);
    if (!row) return null;
    // Its place: the waiting runs ahead of it in line order, counted along members_line, not the whole line read.
    const position =
      row.state === 'waiting'
        ? this.sql
            .exec<{ ahead: number }>(
              `SELECT count(*) AS ahead FROM members WHERE state = 'waiting' AND (priority < ? OR (priority = ? AND seq < ?))`,
              row.priority,
              row.priority,
              row.seq,
            )
            .one().ahead + 1
        : null;
    return memberOf(row, position);
  }

  private row(runId: string): MemberRow | undefined {
    return this.sql.exec<MemberRow>('SELECT * FROM members WHERE run_id = ?', runId).toArray()[0];
  }

  /** Runs holding a slot, for the check that each still runs. */
  running(): string[] {
    return this.sql
      .exec<{ run_id: string }>("SELECT run_id FROM members WHERE state = 'running'")
      .toArray()
      .map((r) => r.run_id);
  }

  /** How many runs of the batch hold a slot. */
  runningInBatch(batchId: string): number {
    return this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM members WHERE state = 'running' AND batch_id = ?", batchId)
      .one().n;
  }

  /** The batch's own limit on its running runs (its maxRunning), if it set one. */
  batchLimit(batchId: string): number | null {
    return (
      this.sql.exec<{ n: number | null }>('SELECT MAX(batch_limit) AS n FROM members WHERE batch_id = ?', batchId).one()
        .n ?? null
    );
  }

  /** Whether anything waits or runs, so the alarm is worth keeping. */
  busy(): boolean {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM members WHERE state != 'idle'").one().n > 0;
  }
}

/** A member row as the queue shows it, at its place in line (null unless waiting). */
function memberOf(r: MemberRow, position: number | null): QueueMember {
  return {
    runId: r.run_id,
    provider: r.provider,
    limit: r.max_concurrent,
    state: r.state,
    position,
    since: r.since,
    batchId: r.batch_id,
  };
}
