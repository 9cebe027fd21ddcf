// Every run id this worker ever made, kept in the queue's SQLite, so a request naming an id that
// was never made is answered 404 without reaching (and so creating) a Durable Object for it.
// Runs made before the registry existed are found in D1 and registered when first looked up (run-lookup.ts).

/** The set of run ids that exist, in the RunQueue object's SQLite. */
export class RunRegistry {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Notes a run id, before its object is made. */
  add(runId: string, now: number): void {
    this.sql.exec('INSERT OR IGNORE INTO known_runs (run_id, created_at) VALUES (?, ?)', runId, now);
  }

  /** Whether a run with this id was made. */
  has(runId: string): boolean {
    return this.sql.exec('SELECT 1 FROM known_runs WHERE run_id = ?', runId).toArray().length > 0;
  }
}
