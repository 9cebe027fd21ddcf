// A person's terminal recorded as its bytes (issue 30): what a screen needs passes as it came, what a
// hostile target could use on a watcher's terminal (clipboard, title, window) does not; terminal.cast
// replays a takeover in Debian's asciinema, and transcript.md shows it as text.
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { runConfigSchema, runSummarySchema } from '../../schema/run.ts';
import { ScreenDecoder, screenText } from '../../schema/screen-bytes.ts';
import { terminalCast } from '../../worker/artifacts/terminal-cast.ts';
import { transcript } from '../../worker/artifacts/transcript.ts';
import { asciinemaCat } from '../support/asciinema.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('screen bytes', () => {
  it('keeps what a full-screen program draws and drops what reaches past the screen', () => {
    const drawn = '\x1b[?1049h\x1b[H\x1b[2J\x1b[1;31mred\x1b[0m\x1b[5;10H~\r\n\x1b(B\x1b7\x1b8\x08';
    expect(screenText(drawn)).toBe(drawn);
    const hostile = [
      '\x1b]52;c;ZXZpbA==\x07', // write the clipboard
      '\x1b]0;title\x1b\\', // set the window title
      '\x1b]8;;https://evil.example\x07link\x1b]8;;\x07', // a hyperlink
      '\x1bPq#0;2;0;0;0\x1b\\', // DCS (sixel)
      '\x1b_apc\x1b\\',
      '\x1b[8;100;300t', // resize the window
      '\x9b31m', // a C1 CSI
    ].join('');
    expect(screenText(`a${hostile}b`)).toBe('alinkb');
  });

  it('judges an escape split across chunks whole: a clipboard write or a window operation cannot slip through', () => {
    const run = (...chunks: string[]) => {
      const decoder = new ScreenDecoder();
      return chunks.map((c) => decoder.next(b64(c))).join('');
    };
    expect(run('hello\x1b', ']52;c;aGFja2Vk\x07', 'world')).toBe('helloworld');
    expect(run('a\x1b[', '8;5;5t', 'b')).toBe('ab');
    expect(run('a\x1b]0;ti', 'tle\x1b', '\\b')).toBe('ab');
    expect(run('a\x1bP', 'q#0', ';2\x1b\\b')).toBe('ab');
    // What a screen needs still passes when split: a colour, a cursor move, a mode.
    expect(run('x\x1b[1', ';31m', 'y\x1b', '[?1049h')).toBe('x\x1b[1;31my\x1b[?1049h');
    // A string too long to hold is dropped to its end, however many chunks it spans.
    expect(run('a\x1b]52;c;', 'Q'.repeat(5000), 'Q'.repeat(5000), '\x07b')).toBe('ab');
  });

  it('decodes chunks in order, keeping a character split between two whole', () => {
    const bytes = Buffer.from('é→✓', 'utf8');
    const decoder = new ScreenDecoder();
    const parts = [bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4)].map((p) =>
      decoder.next(p.toString('base64')),
    );
    expect(parts.join('')).toBe('é→✓');
    expect(parts[0]).toBe('');
  });
});

describe('a takeover in the archive', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 24, 0, 0, s)).toISOString();
  let seq = 0;
  const timed = (s: number, body: Record<string, unknown>): RunEvent =>
    ({ seq: ++seq, runId: 'run_cast0000000000000000', ...body, ts: at(s) }) as RunEvent;
  const log: RunEvent[] = [
    timed(0, { type: 'level_started', level: 0, attempt: 1, retryCount: 0 }),
    timed(1, { type: 'takeover_started', level: 0, by: 'the web UI', cols: 80, rows: 24 }),
    timed(2, { type: 'terminal_output', level: 0, data: b64('bandit0@bandit:~$ cat readme\r\nthe-secret-wo') }),
    timed(3, {
      type: 'terminal_output',
      level: 0,
      data: b64('rd\r\n\x1b]52;c;ZXZpbA==\x07\x1b[?1049h\x1b[Hvi screen'),
      cols: 60,
      rows: 6,
    }),
    timed(4, { type: 'takeover_ended', level: 0, by: 'the web UI', reason: 'handback', durationMs: 3000 }),
  ];

  it("plays in Debian's asciinema with the person's bytes as drawn, and without the clipboard write", () => {
    const cast = terminalCast('run_cast0000000000000000', runConfigSchema.parse({}), log, '127.0.0.1:2220');
    const frames = cast
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as [number, string, string]);
    const output = frames.filter(([, code]) => code === 'o').map(([, , text]) => text);
    expect(output).toContain('bandit0@bandit:~$ cat readme\r\nthe-secret-wo');
    expect(output).toContain('rd\r\n\x1b[?1049h\x1b[Hvi screen');
    expect(cast).not.toContain('52;c');
    // The player follows the person's screen size: the takeover's, a resize, then the recording's own again.
    expect(frames.filter(([, code]) => code === 'r').map(([, , size]) => size)).toEqual(['80x24', '60x6', '120x36']);
    expect(frames.filter(([, code]) => code === 'm').map(([, , label]) => label)).toContain(
      'a person took the terminal at level 0',
    );
    const shown = asciinemaCat(cast);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('the-secret-word');
    expect(shown.stdout).toContain('vi screen');
  });

  it('shows the session as text in transcript.md, escapes gone', () => {
    const run = runSummarySchema.parse({
      id: 'run_cast0000000000000000',
      status: 'paused_for_user_action',
      config: runConfigSchema.parse({}),
      currentLevel: 0,
      levelsSolved: 0,
      createdAt: at(0),
      updatedAt: at(4),
      startedAt: at(0),
      endedAt: null,
      lastError: null,
      pendingAction: null,
    });
    const text = transcript(run, log);
    expect(text).toContain('took the terminal');
    expect(text).toContain('the-secret-word');
    expect(text).toContain('vi screen');
    expect(text).toContain('The terminal closed (handback) after 3 s');
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('52;c');
  });
});
