// The transcript folded by level: the events between one level's start and the next level's form its
// group, so the page can show one line per level and open only the one being read. Pure, tested in Node.
import type { RunEvent } from '../../schema/protocol.ts';

/** A stretch of the log: one level's events in order, or (level null) the run's own start or end. */
export type LevelGroup = { key: string; level: number | null; firstSeq: number; events: RunEvent[] };

/**
 * Splits `events` (in seq order) into groups: a new group at each `level_started` for another level,
 * at `run_complete` (the run's end is never folded away), and before the first level (the run's start).
 * A group holds the events `keep` accepts; its first seq is that of the event that opened it.
 */
export function groupByLevel(events: readonly RunEvent[], keep: (e: RunEvent) => boolean = () => true): LevelGroup[] {
  return extendGroups([], events, keep);
}

/**
 * `groups` with `added` (the events after theirs) folded in. The groups before the last are the same
 * objects, so a long run's live update costs its new events, not the whole log.
 */
export function extendGroups(
  groups: readonly LevelGroup[],
  added: readonly RunEvent[],
  keep: (e: RunEvent) => boolean = () => true,
): LevelGroup[] {
  const out = groups.slice();
  const tail = out.at(-1);
  let open: LevelGroup | null = tail ? { ...tail, events: tail.events.slice() } : null;
  if (open) out[out.length - 1] = open;
  for (const event of added) {
    const level = event.type === 'level_started' ? event.level : event.type === 'run_complete' ? null : undefined;
    const starts = open === null || (level !== undefined && (level !== open.level || level === null));
    if (starts) {
      const at: number | null = level === undefined ? null : level;
      open = { key: `g${out.length}-${at ?? 'run'}`, level: at, firstSeq: event.seq, events: [] };
      out.push(open);
    }
    if (keep(event)) open?.events.push(event);
  }
  return out;
}

/** The group that holds `seq`, by binary search on the groups' first seqs; null before the first. */
export function groupOfSeq(groups: readonly LevelGroup[], seq: number): LevelGroup | null {
  let lo = 0;
  let hi = groups.length - 1;
  let found: LevelGroup | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const group = groups[mid]!;
    if (group.firstSeq <= seq) {
      found = group;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The level the page opens: the run's current level kept inside its range (a stop can point past it). */
export function clampLevel(level: number, from: number, to: number): number {
  return Math.min(Math.max(level, from), to);
}
