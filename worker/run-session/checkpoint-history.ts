// Every step's checkpoint, kept so a run can be forked from any step (docs/forks.md). A row per step, keyed
// by the seq of the step's last event: the whole checkpoint at a call's first step (as the proxy sent it),
// the patch after it, and neither at a pause. A step's checkpoint is the nearest whole at or before it with
// the patches after it applied, so a step costs the size of its patch, not of the attempt's history.
import { applyCheckpointPatch } from '../../schema/checkpoint-patch.ts';
import type { Checkpoint, CheckpointPatch } from '../../schema/protocol.ts';
import { checkpointSchema } from '../../schema/protocol.ts';

/** What a step saved of the agent's place: a whole checkpoint, a patch to the last one, or nothing new. */
export type SavedPlace = { checkpoint: Checkpoint } | { checkpointPatch: CheckpointPatch } | null;

type Row = { id: number; seq: number; whole: string | null; patch: string | null };

/** The nearest kept seqs on either side of one that is not kept (null: none on that side). */
export type KeptAround = { before: number | null; after: number | null };

/** The checkpoint_history table (object-sql/schema.ts); write inside the step's own transaction. */
export class CheckpointHistory {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** Keeps the checkpoint the step ending at `seq` saved (null: the one before, unchanged, e.g. a pause). */
  add(seq: number, saved: SavedPlace): void {
    const whole = saved && 'checkpoint' in saved ? JSON.stringify(saved.checkpoint) : null;
    const patch = saved && 'checkpointPatch' in saved ? JSON.stringify(saved.checkpointPatch) : null;
    this.sql.exec('INSERT INTO checkpoint_history (seq, whole, patch) VALUES (?, ?, ?)', seq, whole, patch);
  }

  /** Whether a fork may start at `seq`: a step ended there (or the run paused there) with a checkpoint kept. */
  isKept(seq: number): boolean {
    return this.sql.exec('SELECT 1 FROM checkpoint_history WHERE seq = ? LIMIT 1', seq).toArray().length > 0;
  }

  /** The nearest kept seqs before and after `seq`, for a refusal that says where a fork could start. */
  around(seq: number): KeptAround {
    const one = (query: string) => this.sql.exec<{ seq: number | null }>(query, seq).one().seq ?? null;
    return {
      before: one('SELECT max(seq) AS seq FROM checkpoint_history WHERE seq < ?'),
      after: one('SELECT min(seq) AS seq FROM checkpoint_history WHERE seq > ?'),
    };
  }

  /**
   * The agent's checkpoint once the step ending at `seq` was stored: the last whole at or before it and the
   * patches after, applied in order. Null when nothing kept reaches back to a whole checkpoint.
   */
  at(seq: number): Checkpoint | null {
    const last = this.sql
      .exec<{ id: number | null }>('SELECT max(id) AS id FROM checkpoint_history WHERE seq <= ?', seq)
      .one().id;
    if (last === null) return null;
    const base = this.sql
      .exec<{ id: number | null }>(
        'SELECT max(id) AS id FROM checkpoint_history WHERE whole IS NOT NULL AND id <= ?',
        last,
      )
      .one().id;
    if (base === null) return null;
    let checkpoint: Checkpoint | null = null;
    for (const row of this.sql.exec<Row>(
      'SELECT id, seq, whole, patch FROM checkpoint_history WHERE id >= ? AND id <= ? ORDER BY id',
      base,
      last,
    )) {
      if (row.whole !== null) checkpoint = JSON.parse(row.whole) as Checkpoint;
      else if (row.patch !== null && checkpoint)
        checkpoint = applyCheckpointPatch(checkpoint, JSON.parse(row.patch) as CheckpointPatch);
    }
    const parsed = checkpointSchema.safeParse(checkpoint);
    return parsed.success ? parsed.data : null;
  }
}
