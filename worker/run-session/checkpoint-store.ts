// The agent's last checkpoint in the Durable Object's SQLite, stored so that a patch (only what a
// node changed) costs a write the size of the change: list fields that have been appended to (the
// attempt's history above all) live one item per row in checkpoint_items; the rest of the state and
// the envelope stay one small JSON text in loop.checkpoint. Rewriting the whole checkpoint after
// every node was the object's largest cost once an attempt's history grew.
import { applyCheckpointPatch } from '../../schema/checkpoint-patch.ts';
import type { Checkpoint, CheckpointPatch } from '../../schema/protocol.ts';
import { checkpointSchema } from '../../schema/protocol.ts';

/** What loop.checkpoint holds: the checkpoint less its row-stored lists, and how many items each has. */
type Stored = Checkpoint & { lists?: Record<string, number> };

/** Reads, replaces and patches the checkpoint; call the writers inside the step's transaction. */
export class CheckpointStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** The whole checkpoint, or null when there is none or it is not one (then the run starts afresh). */
  read(): Checkpoint | null {
    const stored = this.stored();
    if (!stored) return null;
    const { lists = {}, ...checkpoint } = stored;
    const state: Record<string, unknown> = { ...checkpoint.state };
    for (const key of Object.keys(lists)) state[key] = [];
    for (const row of this.sql.exec<{ key: string; json: string }>(
      'SELECT key, json FROM checkpoint_items ORDER BY key, idx',
    )) {
      (state[row.key] as unknown[] | undefined)?.push(JSON.parse(row.json));
    }
    const parsed = checkpointSchema.safeParse({ ...checkpoint, state });
    return parsed.success ? parsed.data : null;
  }

  /** Replaces the checkpoint with a whole one (or none). */
  write(checkpoint: Checkpoint | null): void {
    this.sql.exec('DELETE FROM checkpoint_items');
    this.sql.exec('UPDATE loop SET checkpoint = ?', checkpoint && JSON.stringify(checkpoint));
  }

  /** Applies a patch made against the stored checkpoint; throws (rolling the step back) when it does not fit. */
  patch(patch: CheckpointPatch): void {
    const stored = this.stored();
    if (!stored) throw new Error('the proxy sent a checkpoint patch, but there is no checkpoint to apply it to');
    // Checked before anything is written (applyCheckpointPatch checks again), so even outside a transaction nothing changes.
    if (patch.base !== stored.step)
      throw new Error(`a checkpoint patch for step ${patch.base} cannot apply to step ${stored.step}`);
    const lists = { ...(stored.lists ?? {}) };
    // The envelope and the fields kept in it change as the patch says; row-stored lists apart.
    const inline = { ...patch, append: {} };
    for (const key of [...Object.keys(patch.set), ...patch.unset]) {
      if (lists[key] === undefined) continue;
      this.sql.exec('DELETE FROM checkpoint_items WHERE key = ?', key);
      delete lists[key];
    }
    const state = { ...stored.state };
    for (const [key, items] of Object.entries(patch.append)) {
      let count = lists[key];
      if (count === undefined) {
        // A list's first append moves it out of the envelope into rows.
        const existing = state[key];
        if (!Array.isArray(existing)) throw new Error(`a checkpoint patch appends to "${key}", which is not a list`);
        delete state[key];
        this.insert(key, 0, existing);
        count = existing.length;
      }
      this.insert(key, count, items);
      lists[key] = count + items.length;
    }
    const { lists: _lists, ...envelope } = stored;
    const next: Stored = { ...applyCheckpointPatch({ ...envelope, state }, inline), lists };
    this.sql.exec('UPDATE loop SET checkpoint = ?', JSON.stringify(next));
  }

  private insert(key: string, from: number, items: readonly unknown[]): void {
    items.forEach((item, i) =>
      this.sql.exec(
        'INSERT INTO checkpoint_items (key, idx, json) VALUES (?, ?, ?)',
        key,
        from + i,
        JSON.stringify(item),
      ),
    );
  }

  private stored(): Stored | null {
    const row = this.sql
      .exec<{ checkpoint: string | null }>('SELECT checkpoint FROM loop WHERE singleton = 1')
      .toArray()[0];
    return row?.checkpoint ? (JSON.parse(row.checkpoint) as Stored) : null;
  }
}
