// A run's log as the archive reads it: in pages, oldest first, never whole. From the run's Durable Object
// (its stored JSON text, about 1,000 events or 512 KiB a page, as a socket replay reads it) or from an
// array (tests, benches, the single-file routes' callers). Each archive file is one pass over the pages.
import type { RunEvent } from '../../schema/protocol.ts';
import { redactorOf } from './redact.ts';
import type { RunSecret } from './redact.ts';

/** Events a page asks for; the object also stops a page near 512 KiB (larger pages measured no faster). */
export const LOG_PAGE = 1_000;

/** A run's log through a fixed last seq, read in pages. */
export type LogPages = {
  /** The last seq any pass reads: the log's end when the archive began, so every file sees the same events. */
  readonly lastSeq: number;
  /** The events with `after` < seq <= `through` (default: to `lastSeq`), a page at a time, oldest first. */
  pages(after?: number, through?: number): AsyncIterable<readonly RunEvent[]>;
};

/** What the run's object answers for a page (RunSession.eventPage). */
type EventPageReader = { eventPage(since: number, limit: number): Promise<string | null> };

/** The log of the run in `session`, through `lastSeq`, read from its object a page per call. */
export function sessionPages(session: EventPageReader, lastSeq: number): LogPages {
  return {
    lastSeq,
    async *pages(after = 0, through = lastSeq) {
      const end = Math.min(through, lastSeq);
      for (let since = after; since < end; ) {
        const text = await session.eventPage(since, LOG_PAGE);
        if (text === null) throw new Error('the run is gone from its object');
        const events = (JSON.parse(text) as { events: RunEvent[] }).events;
        if (events.length === 0) return;
        const last = events.at(-1)!.seq;
        yield last > end ? events.filter((e) => e.seq <= end) : events;
        since = last;
      }
    },
  };
}

/** A log held in memory, in pages of LOG_PAGE events. */
export function arrayPages(events: readonly RunEvent[]): LogPages {
  const lastSeq = events.at(-1)?.seq ?? 0;
  return {
    lastSeq,
    async *pages(after = 0, through = lastSeq) {
      const within = events.filter((e) => e.seq > after && e.seq <= through);
      for (let i = 0; i < within.length; i += LOG_PAGE) yield within.slice(i, i + LOG_PAGE);
    },
  };
}

/** Every event of `log`, one at a time. */
export async function* eventsOf(log: LogPages, after?: number, through?: number): AsyncIterable<RunEvent> {
  for await (const page of log.pages(after, through)) yield* page;
}

/**
 * The log as the archive shows it: each event redacted as shownEvents redacts the whole log (its JSON text,
 * the JSON forms of every secret, parsed back), so no form of a secret reaches a builder. The first pass over
 * the whole log notes which events held a secret; later passes redact only those (most hold none), so a
 * file costs one more read of the log, not one more redaction of it.
 */
export function shownPages(log: LogPages, secrets: readonly RunSecret[]): LogPages {
  if (!secrets.length) return log;
  const redact = redactorOf(secrets);
  /** The seqs of the events that held a secret, once a whole pass has looked at every event. */
  let holding: ReadonlySet<number> | null = null;
  return {
    lastSeq: log.lastSeq,
    async *pages(after = 0, through = log.lastSeq) {
      const known = holding;
      const found = new Set<number>();
      for await (const page of log.pages(after, through)) {
        const wanted = known ? page.filter((event) => known.has(event.seq)) : page;
        if (wanted.length === 0) {
          yield page;
          continue;
        }
        // Redacted as one text, as the whole log was; an event whose text changed held a secret.
        const texts = wanted.map((event) => JSON.stringify(event));
        const whole = `[${texts.join(',')}]`;
        const shown = redact(whole, { json: true });
        if (shown === whole) {
          yield page;
          continue;
        }
        const replaced = new Map<number, RunEvent>();
        for (const [i, event] of (JSON.parse(shown) as RunEvent[]).entries())
          if (JSON.stringify(event) !== texts[i]) replaced.set(event.seq, event);
        for (const seq of replaced.keys()) found.add(seq);
        yield page.map((event) => replaced.get(event.seq) ?? event);
      }
      if (!known && after === 0 && through >= log.lastSeq) holding = found;
    },
  };
}
