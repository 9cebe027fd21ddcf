// A run's links to its fork family (docs/forks.md): a fork reads its parent's events up to the fork once per
// object lifetime, over RPC from the parent's own reader (so a fork of a fork recurses), and a parent keeps
// the list of its forks for its page.
import type { ForkEntry } from '../../schema/fork.ts';
import { sessionFor } from '../run-lookup.ts';
import type { EventText, ForkOrigin, RunStore } from './run-store.ts';

/** A fork reads its parent's events in pages of about this many bytes, well under the RPC size limit (32 MiB). */
export const PREFIX_PAGE_BYTES = 4 * 1024 * 1024;

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
    this.loading ??= this.fetchPrefix(wanted)
      .then((rows) => this.store.setPrefix(rows))
      .finally(() => {
        this.loading = null;
      });
    await this.loading;
  }

  /** The parent's events 1..forkSeq, page by page from the parent's own reader (its own prefix included). */
  async fetchPrefix(origin: ForkOrigin): Promise<EventText[]> {
    const rows: EventText[] = [];
    const parent = sessionFor(this.env, origin.parentId);
    while (rows.length < origin.forkSeq) {
      const page = await parent.eventsThrough(origin.forkSeq, rows.length);
      if (!page?.length || page[0]?.seq !== rows.length + 1)
        throw new Error(
          `run ${origin.parentId} did not give its events up to ${origin.forkSeq}, where the fork starts`,
        );
      rows.push(...page);
    }
    return rows;
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
