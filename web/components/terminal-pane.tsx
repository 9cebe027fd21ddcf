'use client';
// The SSH session as a terminal shows it: a prompt per level's user, each command, then what it
// printed (stderr in red), on a black screen in a monospace font. Read-only, so plain text in a <pre>
// does what xterm.js would, stays selectable and readable by screen readers, and costs no bundle.
// Only the lines on screen are rendered; binary output shows as its size and an escaped preview.
import { useMemo, useRef } from 'react';
import type { RunEvent } from '../../schema/protocol.ts';
import { binarySummary, looksBinary } from '../lib/binary-preview.ts';
import { stripAnsi } from '../lib/format.ts';
import { Shown } from './shown-text.tsx';
import { VirtualList } from './virtual-list.tsx';

type Line = { key: string; kind: 'prompt' | 'stdout' | 'stderr' | 'note'; text: string };

/** What a stream printed, as the pane shows it: text without its escapes, or binary's one-line summary. */
function printed(text: string): { kind: 'text' | 'binary'; text: string } {
  if (looksBinary(text)) return { kind: 'binary', text: `# ${binarySummary(text)}` };
  return { kind: 'text', text: stripAnsi(text).replace(/\n$/, '') };
}

/** Each event's lines, worked out once: a long run's events are read again at every update. */
const linesOf = new WeakMap<RunEvent, Line[]>();

/** The pane's lines for a run's events, in order, after `lines` (the lines of the events before them). */
export function terminalLines(events: readonly RunEvent[], lines: Line[] = []): Line[] {
  for (const e of events) {
    if (e.type !== 'level_started' && e.type !== 'command' && e.type !== 'output') continue;
    let own = linesOf.get(e);
    if (!own) {
      own = eventLines(e);
      linesOf.set(e, own);
    }
    for (const line of own) lines.push(line);
  }
  return lines;
}

function eventLines(e: RunEvent): Line[] {
  const lines: Line[] = [];
  if (e.type === 'level_started')
    lines.push({ key: `${e.seq}`, kind: 'note', text: `# logged in as bandit${e.level} (attempt ${e.attempt})` });
  if (e.type === 'command')
    lines.push({ key: `${e.seq}`, kind: 'prompt', text: `bandit${e.level}@bandit:~$ ${e.command}` });
  if (e.type === 'output') {
    for (const [stream, text] of [
      ['stdout', e.stdout],
      ['stderr', e.stderr],
    ] as const) {
      if (!text) continue;
      const shown = printed(text);
      lines.push({ key: `${e.seq}${stream[3]}`, kind: shown.kind === 'binary' ? 'note' : stream, text: shown.text });
    }
    if (e.truncated) lines.push({ key: `${e.seq}t`, kind: 'note', text: '# … output truncated (head and tail kept)' });
    if (e.exitCode === null) lines.push({ key: `${e.seq}x`, kind: 'note', text: '# timed out' });
  }
  return lines;
}

const LINE_PX = 20;
const estimate = (l: Line) => Math.min(l.text.split('\n', 40).length, 40) * LINE_PX + (l.text.length > 4000 ? 200 : 0);
const lineKey = (l: Line) => l.key;
const render = (l: Line) => (
  <>
    <Shown text={l.text} />
    {'\n'}
  </>
);
const lineProps = (l: Line) => ({ className: `term-line term-${l.kind}` });

export function TerminalPane({ events }: { events: readonly RunEvent[] }) {
  // Extended, not rebuilt, when events were only appended (a live run).
  const held = useRef<{ events: readonly RunEvent[]; lines: Line[] }>({ events: [], lines: [] });
  const lines = useMemo(() => {
    const { events: before, lines: had } = held.current;
    const n = before.length;
    const appended = n > 0 && n <= events.length && events[n - 1] === before[n - 1];
    const next = appended ? terminalLines(events.slice(n), had.slice()) : terminalLines(events);
    held.current = { events, lines: next };
    return next;
  }, [events]);
  return (
    <section className="terminal-panel panel" aria-labelledby="terminal-title">
      <h2 id="terminal-title">Terminal</h2>
      {lines.length === 0 ? (
        <pre className="terminal">
          <span className="term-note">Not connected yet.</span>
        </pre>
      ) : (
        <VirtualList
          as="pre"
          items={lines}
          itemKey={lineKey}
          estimate={estimate}
          renderItem={render}
          rowProps={lineProps}
          className="terminal"
          role="log"
          aria-label="SSH session output"
        />
      )}
    </section>
  );
}
