// The transcript's search box: finds a phrase in the run's commands, outputs and thinking, case-insensitive,
// oldest first, with a short excerpt around each hit. Pure, so it is tested in Node.
import type { RunEvent } from '../../schema/protocol.ts';

/** One hit: where it is and the text around it. */
export type SearchHit = { seq: number; level: number; type: 'command' | 'output' | 'thinking'; excerpt: string };

const AROUND = 40;

type Searched = Extract<RunEvent, { type: SearchHit['type'] }>;

function searchable(event: RunEvent): { event: Searched; text: string } | null {
  if (event.type === 'command') return { event, text: event.command };
  if (event.type === 'thinking') return { event, text: event.text };
  if (event.type === 'output') return { event, text: event.stderr ? `${event.stdout}\n${event.stderr}` : event.stdout };
  return null;
}

/** Every event whose text holds `query`, at most `limit` of them, and how many there are in all. */
export function searchEvents(
  events: readonly RunEvent[],
  query: string,
  limit = 200,
): { hits: SearchHit[]; total: number } {
  const needle = query.trim().toLowerCase();
  const hits: SearchHit[] = [];
  if (!needle) return { hits, total: 0 };
  let total = 0;
  for (const one of events) {
    const found = searchable(one);
    if (found === null) continue;
    const { event, text } = found;
    const at = text.toLowerCase().indexOf(needle);
    if (at < 0) continue;
    total++;
    if (hits.length >= limit) continue;
    const start = Math.max(0, at - AROUND);
    const excerpt = `${start > 0 ? '…' : ''}${text.slice(start, at + needle.length + AROUND).replace(/\s+/g, ' ')}`;
    hits.push({ seq: event.seq, level: event.level, type: event.type, excerpt });
  }
  return { hits, total };
}
