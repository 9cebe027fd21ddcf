// report.html's inline player, run in Node against stand-in elements: it draws what a terminal would
// show for CR, LF, backspace, tab, erase-line and clear-screen, drops every other escape sequence,
// shortens idle gaps to the recording's idle_time_limit, seeks both ways and bounds its scrollback.
import { describe, expect, it } from 'vitest';
import { REPORT_PLAYER_SCRIPT } from '../../worker/artifacts/report-player.ts';

type Listener = () => void;
class Element {
  textContent = '';
  value = '0';
  max = '0';
  disabled = true;
  scrollTop = 0;
  scrollHeight = 0;
  listeners = new Map<string, Listener>();
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, listener);
  }
}

/** Runs the player over `frames` (each [seconds, text]) and returns its screen and position slider. */
function player(frames: [number, string][], header: Record<string, unknown> = {}) {
  const cast = [JSON.stringify({ version: 2, width: 80, height: 24, ...header })]
    .concat(frames.map(([t, text]) => JSON.stringify([t, 'o', text])))
    .join('\n');
  const elements: Record<string, Element> = {
    'cast-data': Object.assign(new Element(), { textContent: JSON.stringify(`${cast}\n`) }),
    'replay-screen': new Element(),
    'replay-play': new Element(),
    'replay-speed': Object.assign(new Element(), { value: '1' }),
    'replay-position': new Element(),
    'replay-clock': new Element(),
  };
  new Function('document', REPORT_PLAYER_SCRIPT)({ getElementById: (id: string) => elements[id] ?? null });
  const position = elements['replay-position']!;
  const seek = (to: number) => {
    position.value = String(to);
    position.listeners.get('input')?.();
    return elements['replay-screen']!.textContent;
  };
  return { seek, position, play: elements['replay-play']!, clock: elements['replay-clock']! };
}

describe('the report player', () => {
  it('draws carriage returns, backspaces, tabs and line ends as a terminal would', () => {
    const { seek, play } = player([
      [0.1, 'abcdef\rXY\r\n'],
      [0.2, 'ab\b\bZ\r\n'],
      [0.3, 'a\tb\r\n'],
      [0.4, 'an old line\r\x1b[Knew\r\n'],
      [0.5, 'abcdef\b\b\b\x1b[Kxy\r\n'],
    ]);
    expect(play.disabled).toBe(false);
    expect(seek(1)).toBe('XYcdef\nZb\na       b\nnew\nabcxy\n');
  });

  it('clears the screen at ESC [2J and ESC c, and drops colour, titles, clipboard writes and cursor moves', () => {
    const { seek } = player([
      [0.1, 'old text\r\n\x1b[2J\x1b[Hfresh\r\n'],
      [0.2, '\x1b[1;31mred\x1b[0m \x1b]0;PWNED-title\x07\x1b]52;c;UFdORUQ=\x1b\\\x1b[3;1Hplain\r\n'],
      [0.3, '\u009b2Jafter c1\r\n'],
    ]);
    expect(seek(0.15)).toBe('fresh\n');
    expect(seek(1)).toBe('fresh\nred plain\nafter c1\n');
    const { seek: seekReset } = player([[0.1, 'before\x1bcafter']]);
    expect(seekReset(1)).toBe('after');
  });

  it('seeks back and forth, and plays idle gaps no longer than idle_time_limit', () => {
    const { seek, position, clock } = player(
      [
        [1, 'one\r\n'],
        [60, 'two\r\n'],
      ],
      { idle_time_limit: 2 },
    );
    expect(position.max).toBe('3');
    expect(seek(3)).toBe('one\ntwo\n');
    expect(seek(1.5)).toBe('one\n');
    expect(seek(0)).toBe('');
    expect(seek(3)).toBe('one\ntwo\n');
    expect(clock.textContent).toBe('3.0 s / 3.0 s');
  });

  it('keeps between 5,000 and 10,000 lines of scrollback, the newest last', () => {
    const lines = Array.from({ length: 12_345 }, (_, i) => `line ${i}\r\n`).join('');
    const screen = player([[0.1, lines]])
      .seek(1)
      .split('\n');
    expect(screen.length).toBeGreaterThanOrEqual(5_000);
    expect(screen.length).toBeLessThanOrEqual(10_001);
    expect(screen.at(-2)).toBe('line 12344');
    expect(screen).not.toContain('line 0');
  });
});
