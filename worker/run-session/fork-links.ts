// A run's links to its fork family (docs/forks.md): a fork reads its parent's events up to the fork once per
// object lifetime, over RPC from the parent's own reader (so a fork of a fork recurses), and a parent keeps
// the list of its forks for its page.
import type { ForkEntry } from '../../schema/fork.ts';
import { sessionFor } from '../run-lookup.ts';
import type { RunStore } from './run-store.ts';

/** The parent's prefix loader and the list of forks, over the run's SQLite (table forks, object-sql/schema.ts). */
export class ForkLinks {
  private readonly sql: SqlStorage;
  private readonly store: RunStore;
  private readonly env: Env;
  /** The parent's events being read, so concurrent readers wait for the one read. */
  private loading: Promise<void> | null = null;

  constructor(sql: SqlStorage, store: RunStore, env: Env) {
    this.sql = sql;
    this.store = store;
    this.env = env;
  }

  /**
   * Puts a fork's parent's events 1..forkSeq in memory (they never change), so every read of the log after it,
   * the socket replay included, is synchronous. Nothing for a run that is no fork or has them already.
   */
  async loadPrefix(): Promise<void> {
    const wanted = this.store.prefixWanted();
    if (!wanted) return;
    this.loading ??= sessionFor(this.env, wanted.parentId)
      .eventsThrough(wanted.forkSeq)
      .then((rows) => {
        if (rows?.length !== wanted.forkSeq)
          throw new Error(
            `run ${wanted.parentId} did not give its events up to ${wanted.forkSeq}, where this fork starts`,
          );
        this.store.setPrefix(rows);
      })
      .finally(() => {
        this.loading = null;
      });
    await this.loading;
  }

  /** Notes a fork made of this run at `seq`. */
  note(runId: string, seq: number, now: number): void {
    this.sql.exec('INSERT OR IGNORE INTO forks (run_id, seq, created_at) VALUES (?, ?, ?)', runId, seq, now);
  }

  /** The forks made of this run, oldest first. */
  list(): ForkEntry[] {
    return this.sql
      .exec<{ run_id: string; seq: number; created_at: number }>(
        'SELECT run_id, seq, created_at FROM forks ORDER BY created_at, run_id',
      )
      .toArray()
      .map((r) => ({ id: r.run_id, seq: r.seq, createdAt: new Date(r.created_at).toISOString() }));
  }
}
