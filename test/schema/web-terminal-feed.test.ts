// The run page's terminal feed (web/lib/terminal-feed.ts): a finished run's sessions replay from the
// stored chunks; on a live socket the stored chunks and the live terminal_data carry the same bytes, in
// either order and cut differently, and each byte is written once, after the history; a reconnect
// does not write again what the dropped socket already showed. Also the cutting of long input.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { runEventSchema } from '../../schema/protocol.ts';
import { MAX_TERMINAL_INPUT_CHARS } from '../../schema/terminal.ts';
import { splitTerminalInput } from '../../schema/terminal-input.ts';
import type { FeedOp } from '../../web/lib/terminal-feed.ts';
import { TerminalFeed } from '../../web/lib/terminal-feed.ts';

const RUN_ID = 'run_terminalfeed00000000000';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Events numbered from `from`, each a stored event of the protocol. */
function log(from: number, bodies: Record<string, unknown>[]): RunEvent[] {
  return bodies.map((body, i) =>
    runEventSchema.parse({ seq: from + i, ts: '2026-11-24T21:00:00.000Z', runId: RUN_ID, level: 25, ...body }),
  );
}
const out = (text: string) => ({ type: 'terminal_output', data: b64(text) });
const started = { type: 'takeover_started', by: 'the web UI', cols: 80, rows: 24 };

/** The feed with a sink that keeps the text written and the sizes taken. */
function watched(feed = new TerminalFeed()) {
  const ops: FeedOp[] = [];
  feed.attach((op) => ops.push(op));
  const text = () =>
    ops
      .map((op) => (op.kind === 'bytes' ? Buffer.from(op.bytes).toString('utf8') : `[${op.cols}x${op.rows}]`))
      .join('');
  // Only the shell's bytes: the page's own dim lines between sessions taken out.
  const shell = () =>
    text()
      .replace(/(\x1b\[\?1049l)?\x1b\[0m\r\n\x1b\[2m── [^─]* ──\x1b\[0m\r\n/g, '')
      .replace(/\[\d+x\d+\]/g, '');
  return { feed, ops, text, shell };
}

describe('the terminal feed', () => {
  it('replays a finished run: its sessions at their size, between the page’s own lines', () => {
    const { feed, text } = watched();
    const events = log(1, [
      { type: 'status_changed', from: 'queued', to: 'running' },
      started,
      out('$ cat readme\r\n'),
      out('the password is X\r\n'),
      { type: 'takeover_ended', by: 'the web UI', reason: 'handback', durationMs: 42_000, provedLevel: 25 },
    ]);
    feed.snapshot(events.length);
    for (const e of events) feed.event(e);
    expect(text()).toBe(
      '[80x24]\x1b[0m\r\n\x1b[2m── the web UI took the terminal at level 25 ──\x1b[0m\r\n' +
        '$ cat readme\r\nthe password is X\r\n' +
        '\x1b[?1049l\x1b[0m\r\n\x1b[2m── the terminal closed (handback); level 25 proven ──\x1b[0m\r\n',
    );
    expect(feed.sessions).toBe(1);
  });

  it('writes each live byte once, whichever stream comes first and however it is cut', () => {
    const { feed, shell } = watched();
    feed.snapshot(2);
    for (const e of log(1, [{ type: 'status_changed', from: 'queued', to: 'running' }, started])) feed.event(e);
    // Data first, then its event; an event first, then its data; one event for two data chunks.
    feed.data(b64('ab'));
    for (const e of log(3, [out('ab'), out('cd')])) feed.event(e);
    feed.data(b64('cd'));
    feed.data(b64('ef'));
    feed.data(b64('gh'));
    for (const e of log(5, [out('efgh')])) feed.event(e);
    // A stored chunk that overlaps live bytes only in part writes the rest once.
    feed.data(b64('ij'));
    for (const e of log(6, [out('ijkl')])) feed.event(e);
    feed.data(b64('kl'));
    expect(shell()).toBe('abcdefghijkl');
  });

  it('holds live bytes until the replay has reached the snapshot, so history comes first', () => {
    const { feed, shell } = watched();
    const history = log(1, [started, out('old-1 '), out('old-2 ')]);
    feed.snapshot(3);
    feed.event(history[0]!);
    feed.data(b64('new-1 '));
    expect(shell()).toBe('');
    feed.event(history[1]!);
    feed.event(history[2]!);
    feed.data(b64('new-2'));
    for (const e of log(4, [out('new-1 '), out('new-2')])) feed.event(e);
    expect(shell()).toBe('old-1 old-2 new-1 new-2');
  });

  it('after a reconnect, writes only the replayed bytes the dropped socket had not shown live', () => {
    const { feed, shell } = watched();
    feed.snapshot(1);
    feed.event(log(1, [started])[0]!);
    feed.data(b64('one '));
    feed.event(log(2, [out('one ')])[0]!);
    // Shown live, then the socket dropped before their events came.
    feed.data(b64('two '));
    feed.data(b64('three '));
    feed.snapshot(4);
    for (const e of log(3, [out('two '), out('three ')])) feed.event(e);
    feed.data(b64('four'));
    feed.event(log(5, [out('four')])[0]!);
    expect(shell()).toBe('one two three four');
  });

  it('skips a chunk that is not base64, keeps escapes out of a name, and replays to a screen made later', () => {
    const feed = new TerminalFeed();
    feed.snapshot(3);
    for (const e of log(1, [
      { ...started, by: 'evil\x1b]0;title\x07' },
      { type: 'terminal_output', data: '@@@' },
    ]))
      feed.event(e);
    feed.event(log(3, [out('ok')])[0]!);
    const { text } = watched(feed);
    expect(text()).toContain('── evil?]0;title? took the terminal');
    expect(text().endsWith('ok')).toBe(true);
    expect(text()).not.toContain('@@@');
  });
});

describe('splitTerminalInput', () => {
  it('cuts a long paste into messages the schema takes, never inside a surrogate pair', () => {
    const emoji = '😀';
    const paste = `${'x'.repeat(MAX_TERMINAL_INPUT_CHARS - 1)}${emoji}${'y'.repeat(10)}`;
    const chunks = splitTerminalInput(paste);
    expect(chunks.join('')).toBe(paste);
    expect(chunks.map((c) => c.length)).toEqual([MAX_TERMINAL_INPUT_CHARS - 1, 12]);
    expect(chunks[1]!.startsWith(emoji)).toBe(true);
    expect(splitTerminalInput('ls\r')).toEqual(['ls\r']);
    expect(splitTerminalInput('')).toEqual([]);
  });
});
