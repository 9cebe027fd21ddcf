// A run's figures per level, kept in its Durable Object as events are stored, by the one fold every
// program reads a run with (schema/run-record.ts). Each level's figures are stored as the fold made
// them, with a version; the D1 mirror upserts the rows that changed into run_levels. An object stored
// before the fold existed (or any gap between the log and the figures) is caught up from its own log.
import type { RunEvent } from '../schema/protocol.ts';
import { runEventSchema } from '../schema/protocol.ts';
import type { LevelFigures, LevelResult, RecordPlace, RunRecord } from '../schema/run-record.ts';
import { emptyRecord, foldRecord, levelFiguresSchema, recordPlaceSchema, resultOf } from '../schema/run-record.ts';

type FiguresRow = { level: number; figures: string; version: number; sent: number };

/** The per-level figures of one run, and which of them D1 has not taken yet. */
export class LevelStats {
  private readonly sql: SqlStorage;
  private current: RunRecord = emptyRecord;
  private foldedSeq = 0;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    // The tables are worker/object-sql's (migration 0003); this class only reads and writes them.
    this.load();
    this.catchUp();
  }

  /** The fold as it stands after every stored event. */
  get record(): RunRecord {
    return this.current;
  }

  /** Folds a freshly stored event and stores the levels it changed. Call in the event's transaction. */
  apply(event: RunEvent): void {
    this.applyAll([event]);
  }

  /**
   * Folds freshly stored events (a step's) and stores each level they changed and where the fold stands,
   * once for them all: a row written per changed level and one for the place, not per event. Call in
   * their transaction.
   */
  applyAll(events: readonly RunEvent[]): void {
    // A transaction that rolled back after an earlier apply left memory ahead of storage: read it again.
    if (this.storedSeq() !== this.foldedSeq) this.load();
    const before = this.current;
    let after = before;
    let folded = this.foldedSeq;
    for (const event of events) {
      if (event.seq <= folded) continue;
      after = foldRecord(after, event);
      folded = event.seq;
    }
    if (folded === this.foldedSeq) return;
    for (const [level, figures] of after.levels)
      if (before.levels.get(level) !== figures)
        this.sql.exec(
          `INSERT INTO level_figures (level, figures, version) VALUES (?, ?, 1)
           ON CONFLICT (level) DO UPDATE SET figures = excluded.figures, version = version + 1`,
          level,
          JSON.stringify(figures),
        );
    this.current = after;
    this.foldedSeq = folded;
    this.sql.exec(
      `INSERT INTO record_place (singleton, place, folded_seq) VALUES (1, ?, ?)
       ON CONFLICT (singleton) DO UPDATE SET place = excluded.place, folded_seq = excluded.folded_seq`,
      JSON.stringify(after.place),
      folded,
    );
  }

  /** Rows D1 has not taken in their current version, each with that version and its outcome. */
  unsent(): { row: LevelResult; version: number }[] {
    return this.sql
      .exec<FiguresRow>('SELECT level, figures, version, sent FROM level_figures WHERE version > sent ORDER BY level')
      .toArray()
      .map((r) => ({ row: resultOf(levelFiguresSchema.parse(JSON.parse(r.figures))), version: r.version }));
  }

  /** Marks every level for D1 again, so the next mirror sends them all. */
  resendAll(): void {
    this.sql.exec('UPDATE level_figures SET sent = 0');
  }

  /** Notes that D1 took these rows at these versions. */
  sent(taken: readonly { row: LevelResult; version: number }[]): void {
    for (const { row, version } of taken)
      this.sql.exec('UPDATE level_figures SET sent = max(sent, ?) WHERE level = ?', version, row.level);
  }

  private storedSeq(): number {
    const row = this.sql
      .exec<{ folded_seq: number }>('SELECT folded_seq FROM record_place WHERE singleton = 1')
      .toArray()[0];
    return row?.folded_seq ?? 0;
  }

  private load(): void {
    this.current = emptyRecord;
    this.foldedSeq = 0;
    const place = this.sql
      .exec<{ place: string; folded_seq: number }>('SELECT place, folded_seq FROM record_place WHERE singleton = 1')
      .toArray()[0];
    if (!place) return;
    const levels = new Map<number, LevelFigures>();
    for (const r of this.sql.exec<FiguresRow>('SELECT level, figures FROM level_figures').toArray())
      levels.set(r.level, levelFiguresSchema.parse(JSON.parse(r.figures)));
    this.current = { levels, place: recordPlaceSchema.parse(JSON.parse(place.place)) satisfies RecordPlace };
    this.foldedSeq = place.folded_seq;
  }

  /** Folds any stored events the figures have not seen: all of them, for an object stored before the fold. */
  private catchUp(): void {
    const events = this.sql
      .exec<{ json: string }>('SELECT json FROM events WHERE seq > ? ORDER BY seq', this.foldedSeq)
      .toArray()
      .flatMap((row) => {
        const event = runEventSchema.safeParse(JSON.parse(row.json));
        return event.success ? [event.data] : [];
      });
    if (events.length > 0) this.applyAll(events);
  }
}
