// The lessons a level keeps: each text once (a retry that learns the same thing again refreshes it
// instead of repeating it), at most MAX_LESSONS, the oldest model lessons going first.
import type { Lesson } from '../../../schema/protocol.ts';

/** Lessons kept per level; the oldest model lessons go first, a person's hints stay. */
export const MAX_LESSONS = 12;

/** `lessons` with each text once, at its latest place, trimmed to MAX_LESSONS. */
export function keepLessons(lessons: readonly Lesson[]): Lesson[] {
  const latest = new Map<string, number>();
  lessons.forEach((l, i) => latest.set(sameText(l.text), i));
  let kept = lessons.filter((l, i) => latest.get(sameText(l.text)) === i);
  while (kept.length > MAX_LESSONS) {
    const oldestModel = kept.findIndex((l) => l.source === 'model');
    if (oldestModel < 0) return kept.slice(-MAX_LESSONS);
    kept = kept.filter((_, i) => i !== oldestModel);
  }
  return kept;
}

/** Two lessons are the same when they differ only in case and spacing. */
function sameText(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}
