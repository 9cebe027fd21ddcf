'use client';
// The SSH session as a terminal shows it: a prompt per level's user, each command, then what it
// printed (stderr in red), on a black screen in a monospace font. Read-only, so plain text in a <pre>
// does what xterm.js would, stays selectable and readable by screen readers, and costs no bundle.
import type { RunEvent } from '../../schema/protocol.ts';
import { stripAnsi } from '../lib/format.ts';
import { useStickToBottom } from '../lib/use-stick-to-bottom.ts';
import { Shown } from './shown-text.tsx';

type Line = { key: string; kind: 'prompt' | 'stdout' | 'stderr' | 'note'; text: string };

function terminalLines(events: readonly RunEvent[]): Line[] {
  const lines: Line[] = [];
  for (const e of events) {
    if (e.type === 'level_started')
      lines.push({ key: `${e.seq}`, kind: 'note', text: `# logged in as bandit${e.level} (attempt ${e.attempt})` });
    if (e.type === 'command')
      lines.push({ key: `${e.seq}`, kind: 'prompt', text: `bandit${e.level}@bandit:~$ ${e.command}` });
    if (e.type === 'output') {
      if (e.stdout) lines.push({ key: `${e.seq}o`, kind: 'stdout', text: stripAnsi(e.stdout).replace(/\n$/, '') });
      if (e.stderr) lines.push({ key: `${e.seq}e`, kind: 'stderr', text: stripAnsi(e.stderr).replace(/\n$/, '') });
      if (e.truncated)
        lines.push({ key: `${e.seq}t`, kind: 'note', text: '# … output truncated (head and tail kept)' });
      if (e.exitCode === null) lines.push({ key: `${e.seq}x`, kind: 'note', text: '# timed out' });
    }
  }
  return lines;
}

export function TerminalPane({ events }: { events: readonly RunEvent[] }) {
  const lines = terminalLines(events);
  const ref = useStickToBottom<HTMLPreElement>(lines.length);
  return (
    <section className="terminal-panel panel" aria-labelledby="terminal-title">
      <h2 id="terminal-title">Terminal</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard. */}
      <pre ref={ref} className="terminal" role="log" tabIndex={0} aria-label="SSH session output">
        {lines.length === 0 ? (
          <span className="term-note">Not connected yet.</span>
        ) : (
          lines.map((l) => (
            <span key={l.key} className={`term-${l.kind}`}>
              <Shown text={l.text} />
              {'\n'}
            </span>
          ))
        )}
      </pre>
    </section>
  );
}
