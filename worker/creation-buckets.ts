// How many runs each client may still create: a token bucket per client key, kept in the RunQueue
// object's SQLite (one object sees every creation, and the count survives isolates and restarts).
// A bucket that has refilled is the same as none, so rows older than a full refill are dropped.

/** The answer to a request for `count` creations. */
export type CreationGrant = { ok: true } | { ok: false; retryAfterS: number; never: boolean };

/** The rate a client refills at and the most it may create at once. */
export type CreationRate = { perMinute: number; burst: number };

type BucketRow = { tokens: number; updated_at: number };

/** Token buckets of run creations, one per client key. */
export class CreationBuckets {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Takes `count` creations from the client's bucket, all or none. */
  take(client: string, count: number, rate: CreationRate, now: number): CreationGrant {
    const fullAfterMs = (rate.burst / rate.perMinute) * 60_000;
    this.sql.exec('DELETE FROM creation_buckets WHERE updated_at < ?', now - fullAfterMs);
    if (count > rate.burst) return { ok: false, retryAfterS: 0, never: true };
    const row = this.sql
      .exec<BucketRow>('SELECT tokens, updated_at FROM creation_buckets WHERE client = ?', client)
      .toArray()[0];
    const refilled = row
      ? Math.min(rate.burst, row.tokens + ((now - row.updated_at) * rate.perMinute) / 60_000)
      : rate.burst;
    if (refilled < count)
      return { ok: false, retryAfterS: Math.ceil(((count - refilled) / rate.perMinute) * 60), never: false };
    this.sql.exec(
      'INSERT OR REPLACE INTO creation_buckets (client, tokens, updated_at) VALUES (?, ?, ?)',
      client,
      refilled - count,
      now,
    );
    return { ok: true };
  }
}
