// Keeps the run's last model request whole, in the Durable Object's SQLite, so that each new one
// can be stored in D1 as a delta against it (schema/request-delta.ts): flat bytes per call. Every
// WHOLE_EVERY-th request is stored whole, so rebuilding any call reads a bounded number of rows.

/** A whole request at least this often: a rebuild reads at most this many rows. */
export const WHOLE_EVERY = 25;
import type { RunEvent } from '../schema/protocol.ts';
import { encodeRequest } from '../schema/request-delta.ts';

type Trace = { request: unknown; response: unknown };

/** The previous request of a run, and the encoding of the next one against it. */
export class RequestChain {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS last_request (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), id TEXT NOT NULL,
      json TEXT NOT NULL, deltas INTEGER NOT NULL DEFAULT 0)`);
  }

  /** The traces of stored events with each llm_call's request encoded, in the order the calls were made. */
  encodeTraces(events: readonly RunEvent[], traces: ReadonlyMap<string, Trace>): Map<string, Trace> {
    const encoded = new Map(traces);
    for (const event of events) {
      const trace = event.type === 'llm_call' ? traces.get(event.callId) : undefined;
      if (event.type === 'llm_call' && trace) encoded.set(event.callId, { ...trace, request: this.encode(`${event.runId}:${event.seq}`, trace.request) });
    }
    return encoded;
  }

  /** `request`, stored as `id`, encoded against the previous one; it becomes the previous one. */
  encode(id: string, request: unknown): unknown {
    const last = this.sql.exec<{ id: string; json: string; deltas: number }>('SELECT id, json, deltas FROM last_request').toArray()[0];
    const whole = !last || last.deltas + 1 >= WHOLE_EVERY;
    const encoded = whole ? request : encodeRequest(JSON.parse(last.json), last.id, request);
    this.sql.exec('INSERT OR REPLACE INTO last_request (singleton, id, json, deltas) VALUES (1, ?, ?, ?)', id, JSON.stringify(request), whole ? 0 : last.deltas + 1);
    return encoded;
  }
}
