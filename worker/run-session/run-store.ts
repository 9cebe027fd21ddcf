// A run's durable record inside its Durable Object's SQLite: the run row and the event log.
// SQL calls are synchronous here, so a read-modify-write never interleaves with another request.
import type {
  Checkpoint,
  CheckpointPatch,
  PendingAction,
  ProxyEvent,
  Resume,
  RunEvent,
  RunEventBody,
} from '../../schema/protocol.ts';
import { resumeSchema } from '../../schema/protocol.ts';
import { CheckpointStore } from './checkpoint-store.ts';
import type { RunConfig, RunStatus, RunSummary } from '../../schema/run.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { runTimes } from '../run-times.ts';

type RunRow = {
  run_id: string;
  config: string;
  status: string;
  current_level: number;
  levels_solved: number;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  ended_at: number | null;
  last_error: string | null;
  pending_action: string | null;
  parent_id: string | null;
  fork_seq: number | null;
};

/** Where a fork comes from: its parent and the parent's seq its own log goes on from (docs/forks.md). */
export type ForkOrigin = { parentId: string; forkSeq: number };

/** One stored event as its JSON text. */
export type EventText = { seq: number; json: string };

/** The fields of a run that change as it goes. */
export type RunPatch = Partial<{
  status: RunStatus;
  currentLevel: number;
  levelsSolved: number;
  startedAt: number | null;
  endedAt: number | null;
  lastError: string | null;
  pendingAction: PendingAction | null;
}>;

/** Where the agent is: the proxy's last checkpoint, and a person's answer the graph has not been given yet. */
export type AgentPlace = { checkpoint: Checkpoint | null; resume: Resume | null };

/**
 * A change to the loop row: the agent's place (a whole checkpoint, or a `checkpointPatch` from the proxy)
 * and `proxyFailures`, the proxy calls that failed in a row.
 */
export type LoopPatch = Partial<AgentPlace> & { checkpointPatch?: CheckpointPatch; proxyFailures?: number };

type LoopRow = { resume: string | null; failures: number };

/** One run's row and numbered events in Durable Object SQLite storage (tables: object-sql/schema.ts). */
export class RunStore {
  private readonly sql: SqlStorage;
  private readonly checkpoints: CheckpointStore;
  private config: { text: string; config: RunConfig } | null = null;
  /** The text each event appended here was stored as, so the broadcast sends it without serialising again. */
  private readonly texts = new WeakMap<RunEvent, string>();
  /** A fork's origin, read once (it never changes); undefined: not read yet, null: this run is no fork. */
  private originRead: ForkOrigin | null | undefined = undefined;
  /**
   * A fork's parent's events 1..forkSeq, shared, not copied: read from the parent once per object lifetime
   * (they never change) and put before the fork's own in every read of the log. Null until loaded.
   */
  private prefix: readonly EventText[] | null = null;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    this.checkpoints = new CheckpointStore(sql);
  }

  /** Notes a verification run of this run. */
  addVerification(runId: string, now: number): void {
    this.sql.exec('INSERT OR IGNORE INTO verifications (run_id, created_at) VALUES (?, ?)', runId, now);
  }

  /** The verification runs of this run, oldest first. */
  verifications(): string[] {
    return this.sql
      .exec<{ run_id: string }>('SELECT run_id FROM verifications ORDER BY created_at, run_id')
      .toArray()
      .map((r) => r.run_id);
  }

  /** Where the agent is; a run created before the loop existed starts from nothing. */
  agentPlace(): AgentPlace {
    const row = this.loopRow();
    const resume = row?.resume ? resumeSchema.safeParse(JSON.parse(row.resume)) : null;
    return { checkpoint: this.checkpoints.read(), resume: resume?.success ? resume.data : null };
  }

  /** How many proxy calls in a row have failed. */
  proxyFailures(): number {
    return this.loopRow()?.failures ?? 0;
  }

  private loopRow(): LoopRow | undefined {
    return this.sql.exec<LoopRow>('SELECT resume, failures FROM loop WHERE singleton = 1').toArray()[0];
  }

  /**
   * Changes the loop row. A `checkpointPatch` from the proxy is
   * applied to the stored checkpoint, and throws when it does not fit it. A resume or failure count that
   * is already what it is set to is not written again (every step sets both, and they rarely change).
   */
  setLoop(patch: LoopPatch): void {
    this.sql.exec('INSERT OR IGNORE INTO loop (singleton) VALUES (1)');
    const sets: string[] = [];
    const values: (string | number | null)[] = [];
    const set = (assignment: string, value: string | number | null) => {
      sets.push(assignment);
      values.push(value);
    };
    if (patch.checkpoint !== undefined) this.checkpoints.write(patch.checkpoint);
    if (patch.checkpointPatch) this.checkpoints.patch(patch.checkpointPatch);
    const now = patch.resume !== undefined || patch.proxyFailures !== undefined ? this.loopRow() : undefined;
    const resume = patch.resume === undefined ? undefined : patch.resume && JSON.stringify(patch.resume);
    if (resume !== undefined && resume !== now?.resume) set('resume = ?', resume);
    if (patch.proxyFailures !== undefined && patch.proxyFailures !== now?.failures)
      set('failures = ?', patch.proxyFailures);
    if (sets.length > 0) this.sql.exec(`UPDATE loop SET ${sets.join(', ')}`, ...values);
  }

  /** The run, or null when this object holds none. */
  summary(): RunSummary | null {
    const row = this.sql.exec<RunRow>('SELECT * FROM run WHERE singleton = 1').toArray()[0];
    return row ? toSummary(row, this.configOf(row.config)) : null;
  }

  /** The run's config, checked once: it never changes after create(), and summary() runs every step. */
  private configOf(text: string): RunConfig {
    if (this.config?.text !== text)
      this.config = { text, config: runConfigSchema.parse(JSON.parse(text)) satisfies RunConfig };
    return this.config.config;
  }

  /** The pause a person must answer, if the run is paused. */
  pendingAction(): PendingAction | null {
    const row = this.sql.exec<{ pending_action: string | null }>('SELECT pending_action FROM run').toArray()[0];
    return row?.pending_action ? (JSON.parse(row.pending_action) as PendingAction) : null;
  }

  /** Creates the run (a fork: with its origin); false if this object already holds one. */
  create(runId: string, config: RunConfig, now: number, origin: ForkOrigin | null = null): boolean {
    if (this.summary()) return false;
    this.sql.exec(
      `INSERT INTO run (singleton, run_id, config, status, current_level, created_at, updated_at, parent_id, fork_seq)
       VALUES (1, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
      runId,
      JSON.stringify(config),
      config.startLevel,
      now,
      now,
      origin?.parentId ?? null,
      origin?.forkSeq ?? null,
    );
    this.originRead = origin;
    return true;
  }

  /** The run's parent and fork seq, or null when it is no fork. */
  origin(): ForkOrigin | null {
    if (this.originRead === undefined) {
      const row = this.sql
        .exec<{ parent_id: string | null; fork_seq: number | null }>('SELECT parent_id, fork_seq FROM run')
        .toArray()[0];
      if (!row) return null;
      this.originRead = row.parent_id && row.fork_seq ? { parentId: row.parent_id, forkSeq: row.fork_seq } : null;
    }
    return this.originRead;
  }

  /** A fork whose parent's events are not in memory yet: load them (setPrefix) before reading the log. */
  prefixWanted(): ForkOrigin | null {
    const origin = this.origin();
    return origin && this.prefix === null ? origin : null;
  }

  /** The parent's events 1..forkSeq, as the parent's own reader gave them. */
  setPrefix(rows: readonly EventText[]): void {
    this.prefix = rows;
  }

  /** Applies a change to the run row. */
  update(patch: RunPatch, now: number): void {
    const columns: Record<string, string | number | null> = { updated_at: now };
    if (patch.status !== undefined) columns.status = patch.status;
    if (patch.currentLevel !== undefined) columns.current_level = patch.currentLevel;
    if (patch.levelsSolved !== undefined) columns.levels_solved = patch.levelsSolved;
    if (patch.startedAt !== undefined) columns.started_at = patch.startedAt;
    if (patch.endedAt !== undefined) columns.ended_at = patch.endedAt;
    if (patch.lastError !== undefined) columns.last_error = patch.lastError;
    if (patch.pendingAction !== undefined)
      columns.pending_action = patch.pendingAction && JSON.stringify(patch.pendingAction);
    const names = Object.keys(columns);
    this.sql.exec(
      `UPDATE run SET ${names.map((n) => `${n} = ?`).join(', ')} WHERE singleton = 1`,
      ...Object.values(columns),
    );
  }

  /**
   * Numbers and stores events; returns them as clients will see them. An event from the proxy keeps
   * the proxy's `ts` (when it happened); one the object makes itself is stamped `now`. Not parsed
   * again: proxy events were validated as they arrived, and the object's own are typed.
   */
  append(runId: string, bodies: readonly (RunEventBody | ProxyEvent)[], now: number): RunEvent[] {
    let seq = this.lastSeq();
    return bodies.map((body) => {
      seq += 1;
      const ts = 'ts' in body ? body.ts : new Date(now).toISOString();
      const event = { ...body, seq, runId, ts } as RunEvent;
      const level = 'level' in event && typeof event.level === 'number' ? event.level : null;
      const json = JSON.stringify(event);
      this.sql.exec(
        'INSERT INTO events (seq, ts, type, level, json) VALUES (?, ?, ?, ?, ?)',
        seq,
        Date.parse(ts),
        event.type,
        level,
        json,
      );
      this.texts.set(event, json);
      return event;
    });
  }

  /** The JSON text of an event, as stored. */
  jsonOf(event: RunEvent): string {
    return this.texts.get(event) ?? JSON.stringify(event);
  }

  /** A page of events after `since` as the JSON text of `{ events, lastSeq, nextSince }`, built from the stored text. */
  eventPageJson(since: number, limit: number, maxBytes: number): string {
    const page = this.eventTextAfter(since, limit, maxBytes);
    const lastSeq = this.lastSeq();
    const last = page.at(-1)?.seq ?? since;
    const nextSince = last < lastSeq ? last : null;
    return `{"events":[${page.map((row) => row.json).join(',')}],"lastSeq":${lastSeq},"nextSince":${nextSince}}`;
  }

  /** The seq of the llm_call event with this callId and the run it is indexed under, or null. */
  seqOfCall(callId: string): { seq: number; runId: string } | null {
    // A fork's shared events are its parent's (or further up): their model calls are indexed under that run.
    for (const row of this.prefix ?? []) {
      if (!row.json.includes('"llm_call"')) continue;
      const event = JSON.parse(row.json) as RunEvent;
      if (event.type === 'llm_call' && event.callId === callId) return { seq: row.seq, runId: event.runId };
    }
    const row = this.sql
      .exec<{ seq: number }>(
        "SELECT seq FROM events WHERE type = 'llm_call' AND json_extract(json, '$.callId') = ? LIMIT 1",
        callId,
      )
      .toArray()[0];
    const runId = this.summary()?.id;
    return row && runId ? { seq: row.seq, runId } : null;
  }

  /** The newest `count` events, parsed, oldest first. */
  lastEvents(count: number): RunEvent[] {
    const since = Math.max(0, this.lastSeq() - count);
    return this.eventTextAfter(since, count, Number.MAX_SAFE_INTEGER).map((row) => JSON.parse(row.json) as RunEvent);
  }

  /** The highest seq in the log (a fork's: at least its fork seq), 0 when there are no events. */
  lastSeq(): number {
    const own = this.sql.exec<{ seq: number | null }>('SELECT max(seq) AS seq FROM events').one().seq ?? 0;
    return Math.max(own, this.origin()?.forkSeq ?? 0);
  }

  /**
   * Stored events with seq > since as their JSON text, oldest first, until `limit` events or about
   * `maxBytes` (at least one event). Replays send this text as is, with no parse and re-serialise.
   */
  eventTextAfter(since: number, limit: number, maxBytes: number): EventText[] {
    const rows: EventText[] = [];
    let bytes = 0;
    const take = (row: EventText): boolean => {
      if (rows.length >= limit || (rows.length > 0 && bytes + row.json.length > maxBytes)) return false;
      rows.push(row);
      bytes += row.json.length;
      return true;
    };
    const origin = this.origin();
    if (origin && since < origin.forkSeq) {
      // A fork's log begins with its parent's; a read before they are loaded would skip them silently.
      if (this.prefix === null) throw new Error(`run ${origin.parentId}'s events before the fork are not loaded`);
      for (const row of this.prefix) if (row.seq > since && !take(row)) return rows;
    }
    for (const row of this.sql.exec<EventText>(
      'SELECT seq, json FROM events WHERE seq > ? ORDER BY seq LIMIT ?',
      since,
      limit - rows.length,
    ))
      if (!take(row)) break;
    return rows;
  }
}

function toSummary(row: RunRow, config: RunConfig): RunSummary {
  return {
    id: row.run_id,
    config,
    status: row.status as RunStatus,
    currentLevel: row.current_level,
    levelsSolved: row.levels_solved,
    ...runTimes(row.created_at, row.updated_at, row.started_at, row.ended_at),
    lastError: row.last_error,
    ...(row.parent_id && row.fork_seq ? { parentId: row.parent_id, forkSeq: row.fork_seq } : {}),
  };
}
