'use client';
// The agent's story, folded by level: the level being read is open, every other level is one line
// with its outcome, attempts, time and cost, and only the entries on screen are rendered, so the page
// costs the same at 1,000 and 50,000 events. A search box finds commands, outputs and thinking.
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import type { LiveText, RunEvent } from '../../schema/protocol.ts';
import type { LevelFigures } from '../../schema/run-record.ts';
import type { LevelGroup } from '../lib/level-groups.ts';
import { extendGroups, groupByLevel, groupOfSeq } from '../lib/level-groups.ts';
import { searchEvents } from '../lib/search-events.ts';
import { Entry } from './chat-entry.tsx';
import { LevelFoldLine } from './level-fold-line.tsx';
import { Shown } from './shown-text.tsx';
import type { ScrollTarget } from './virtual-list.tsx';
import { VirtualList } from './virtual-list.tsx';

// A terminal's output can be thousands of chunks: it is folded into the shared terminal, not the chat.
const HIDDEN: ReadonlySet<RunEvent['type']> = new Set(['node', 'llm_call', 'run_created', 'terminal_output']);
const inChat = (e: RunEvent) => !HIDDEN.has(e.type);

/** Where the page was asked to go: an event (a #seq-N link, a search hit) or a level (its box in the strip). */
export type Jump =
  | { seq: number; level?: undefined; nonce: number }
  | { level: number; seq?: undefined; nonce: number };

type Row = { kind: 'head'; group: LevelGroup; open: boolean; count: number } | { kind: 'event'; event: RunEvent };

const rowKey = (row: Row) => (row.kind === 'head' ? `h${row.group.key}` : `e${row.event.seq}`);

function estimate(row: Row): number {
  if (row.kind === 'head') return 34;
  const e = row.event;
  if (e.type === 'output') return Math.min(e.stdout.split('\n', 8).length, 7) * 19 + 22;
  if (e.type === 'thinking') return 26 + Math.ceil(e.text.length / 70) * 20;
  return 30;
}

export function ChatLog({
  events,
  live = null,
  levels,
  openLevel,
  jump = null,
  onJump,
}: {
  events: readonly RunEvent[];
  live?: LiveText | null;
  /** The one fold's figures per level, for the folded lines. */
  levels: ReadonlyMap<number, LevelFigures>;
  /** The level open unless a person folds it: the run's current one, inside its range. */
  openLevel: number;
  jump?: Jump | null;
  onJump?: (seq: number) => void;
}) {
  // Grouped once, then extended: live events only ever append to the log.
  const grouped = useRef<{ events: readonly RunEvent[]; groups: LevelGroup[] }>({ events: [], groups: [] });
  const groups = useMemo(() => {
    const held = grouped.current;
    const n = held.events.length;
    const appended = n > 0 && n <= events.length && events[n - 1] === held.events[n - 1];
    const next = appended ? extendGroups(held.groups, events.slice(n), inChat) : groupByLevel(events, inChat);
    grouped.current = { events, groups: next };
    return next;
  }, [events]);
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());
  const jumpGroup = useMemo(() => {
    if (!jump) return null;
    if (jump.seq !== undefined) return groupOfSeq(groups, jump.seq)?.key ?? null;
    return groups.find((g) => g.level === jump.level)?.key ?? null;
  }, [jump, groups]);
  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const group of groups) {
      const shown = group.events;
      if (group.level === null) {
        for (const event of shown) out.push({ kind: 'event', event });
        continue;
      }
      const open = toggled.get(group.key) ?? (group.level === openLevel || group.key === jumpGroup);
      out.push({ kind: 'head', group, open, count: shown.length });
      if (open) for (const event of shown) out.push({ kind: 'event', event });
    }
    return out;
  }, [groups, toggled, openLevel, jumpGroup]);
  // Found once per jump: rows arriving later must not pull the reader back to it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the jump alone asks for a scroll; rows are read then.
  const target = useMemo<ScrollTarget | null>(() => {
    if (!jump) return null;
    const index =
      jump.seq !== undefined
        ? rows.findIndex((r) => r.kind === 'event' && r.event.seq >= jump.seq)
        : rows.findIndex((r) => r.kind === 'head' && r.group.level === jump.level);
    return index < 0 ? null : { index, nonce: jump.nonce };
  }, [jump, jumpGroup]);

  const toggle = useCallback(
    (group: LevelGroup, open: boolean) => setToggled((t) => new Map(t).set(group.key, !open)),
    [],
  );
  const renderRow = useCallback(
    (row: Row) =>
      row.kind === 'head' ? (
        <LevelFoldLine
          level={row.group.level!}
          figures={levels.get(row.group.level!)}
          open={row.open}
          count={row.count}
          onToggle={() => toggle(row.group, row.open)}
        />
      ) : (
        <Entry event={row.event} />
      ),
    [levels, toggle],
  );
  const focusSeq = jump?.seq;
  const rowProps = useCallback(
    (row: Row) =>
      row.kind === 'head'
        ? { className: 'entry fold', 'data-fold-level': row.group.level!, 'data-open': String(row.open) }
        : {
            id: `seq-${row.event.seq}`,
            'data-seq': row.event.seq,
            'data-event': row.event.type,
            className: `entry entry-${row.event.type}${row.event.seq === focusSeq ? ' entry-focus' : ''}`,
          },
    [focusSeq],
  );
  const shownCount = useMemo(() => groups.reduce((n, g) => n + g.events.length, 0), [groups]);
  // Folding or opening a level changes rows in the middle: the list sums its heights again.
  const shape = useMemo(
    () =>
      rows
        .filter((r) => r.kind === 'head' && r.open)
        .map((r) => (r.kind === 'head' ? r.group.key : ''))
        .join(),
    [rows],
  );

  return (
    <section className="chat panel" aria-labelledby="chat-title">
      <h2 id="chat-title">Agent</h2>
      <EventSearch events={events} onJump={onJump} />
      {shownCount === 0 && <p className="muted">Waiting for the agent's first move…</p>}
      <VirtualList
        as="ol"
        items={rows}
        itemKey={rowKey}
        estimate={estimate}
        renderItem={renderRow}
        rowProps={rowProps}
        target={target}
        resetKey={shape}
        className="chat-log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label="What the agent did, oldest first, folded by level"
        data-count={shownCount}
        data-last-seq={events.at(-1)?.seq ?? 0}
        tail={
          live && (
            <li className="entry entry-live" data-live="true" aria-busy="true">
              <p>
                <span className="tag">{live.stage === 'final' ? 'final attempt' : 'thinking'}</span>{' '}
                <Shown text={live.text} />
                <span className="cursor" aria-hidden="true">
                  ▍
                </span>
              </p>
            </li>
          )
        }
      />
    </section>
  );
}

/** The search box over the run's commands, outputs and thinking; a hit opens its level at the event. */
function EventSearch({ events, onJump }: { events: readonly RunEvent[]; onJump?: (seq: number) => void }) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const { hits, total } = useMemo(() => searchEvents(events, deferred), [events, deferred]);
  return (
    <div className="event-search">
      <input
        type="search"
        aria-label="Search commands, outputs and thinking"
        placeholder="Search commands, outputs and thinking"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {deferred.trim() && (
        <>
          <p className="muted small" role="status" data-hits={total}>
            {total === 0
              ? 'No match.'
              : `${total} ${total === 1 ? 'match' : 'matches'}${total > hits.length ? `, the first ${hits.length} shown` : ''}`}
          </p>
          <ol className="search-hits">
            {hits.map((hit) => (
              <li key={hit.seq}>
                <button type="button" data-hit-seq={hit.seq} onClick={() => onJump?.(hit.seq)}>
                  <span className="tag">
                    L{hit.level} {hit.type}
                  </span>{' '}
                  <Shown text={hit.excerpt} />
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
