// The run page's terminal feed (web/lib/terminal-feed.ts): a finished run's sessions replay from the
// stored chunks at their size (the holder's resizes too), live chunks follow in seq order, bytes stay bytes (a character may be
// cut between chunks), a name cannot inject escapes, and a screen made later starts whole. Also the
// cutting of long input into terminal_input messages.
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
      .replace(/(\x1b\[\?1049l\x1b\[999;1H)?\x1b\[0m\r\n\x1b\[2m── [^─]* ──\x1b\[0m\r\n/g, '')
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
    for (const e of events) feed.event(e);
    expect(text()).toBe(
      '[80x24]\x1b[0m\r\n\x1b[2m── the web UI took the terminal at level 25 ──\x1b[0m\r\n' +
        '$ cat readme\r\nthe password is X\r\n' +
        '\x1b[?1049l\x1b[999;1H\x1b[0m\r\n\x1b[2m── the terminal closed (handback); level 25 proven ──\x1b[0m\r\n',
    );
    expect(feed.sessions).toBe(1);
  });

  it('writes each chunk as it comes after a screen attached, in seq order, with its session’s size', () => {
    const { feed, shell, ops } = watched();
    feed.event(log(1, [started])[0]!);
    for (const e of log(2, [out('ab'), out('cd')])) feed.event(e);
    expect(shell()).toBe('abcd');
    expect(ops[0]).toEqual({ kind: 'size', cols: 80, rows: 24 });
    feed.event(log(4, [{ type: 'message_sent', text: 'not for the screen', by: 'the CLI' }])[0]!);
    feed.event(log(5, [out('\u00e9')])[0]!);
    expect(shell()).toBe('abcd\u00e9');
  });

  it('follows the holder’s resize mid-session: the size first, then the chunk stored with it', () => {
    const { feed, text } = watched();
    for (const e of log(1, [started, out('a'), { ...out('b'), cols: 148, rows: 6 }, out('c')])) feed.event(e);
    expect(text()).toMatch(/^\[80x24\].*a\[148x6\]bc$/s);
  });

  it('joins a UTF-8 character cut between two chunks, and drops what reaches past a screen (the clipboard)', () => {
    const { feed, ops } = watched();
    const e = Buffer.from('é', 'utf8');
    const [first, second] = [e.subarray(0, 1).toString('base64'), e.subarray(1).toString('base64')];
    for (const event of log(1, [
      { type: 'terminal_output', data: first },
      { type: 'terminal_output', data: second },
    ]))
      feed.event(event);
    expect(ops.map((op) => (op.kind === 'bytes' ? [...op.bytes] : []))).toEqual([[0xc3, 0xa9]]);
    feed.event(log(3, [out('a\x1b]52;c;ZXZpbA==\x07\x1b[1mb')])[0]!);
    expect(new TextDecoder().decode((ops.at(-1) as { bytes: Uint8Array }).bytes)).toBe('a\x1b[1mb');
  });

  it('skips a chunk that is not base64, keeps escapes out of a name, and replays to a screen made later', () => {
    const feed = new TerminalFeed();
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
