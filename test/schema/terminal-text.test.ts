// The output sanitiser: worked examples for each kind of escape, then properties over any string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryPreview, plainText, safeJson, terminalText, visibleBidi } from '../../schema/terminal-text.ts';
import { HOSTILE, MARK, forbiddenIn } from '../support/hostile-text.ts';

describe('terminalText', () => {
  it('keeps printable text of every script, emoji, tabs, newlines and colour', () => {
    const text = 'héllo мир 你好 مرحبا 👩‍💻\tcol\n\x1b[1;32mgreen\x1b[0m \x1b[38;2;1;2;3mrgb\x1b[m';
    expect(terminalText(text)).toBe(text);
  });

  it('shows concealing and blinking SGR, and ends colour a text left on', () => {
    expect(terminalText('a\x1b[8mhidden\x1b[0m')).toBe('a^[[8mhidden\x1b[0m');
    expect(terminalText('\x1b[1;5mflash')).toBe('^[[1;5mflash');
    // 8 as a 256-colour index is a colour, not conceal.
    expect(terminalText('\x1b[38;5;8mgrey')).toBe('\x1b[38;5;8mgrey\x1b[0m');
    expect(terminalText('\x1b[31mred')).toBe('\x1b[31mred\x1b[0m');
    expect(plainText('\x1b[31mred')).toBe('red');
  });

  it('shows OSC, DCS, APC and other CSI sequences visibly instead of passing them on', () => {
    expect(terminalText('a\x1b]52;c;aGk=\x07b')).toBe('a^[]52;c;aGk=^Gb');
    expect(terminalText('\x1b]0;title\x1b\\')).toBe('^[]0;title^[\\');
    expect(terminalText('\x1bPq#0\x1b\\')).toBe('^[Pq#0^[\\');
    expect(terminalText('\x1b_apc\x1b\\')).toBe('^[_apc^[\\');
    expect(terminalText('\x1b[2J\x1b[H\x1b[?1049h')).toBe('^[[2J^[[H^[[?1049h');
    expect(terminalText('\x1bc\x1b(B\x1b')).toBe('^[c^[(B^[');
    expect(terminalText('\x1b[>4;2m')).toBe('^[[>4;2m');
  });

  it('shows C0, DEL, C1 (8-bit CSI and OSC) and bidi controls, and turns CR into a line break', () => {
    expect(terminalText('a\x00b\x07c\x08d\x7f')).toBe('a^@b^Gc^Hd^?');
    expect(terminalText('\u009b2J\u009d0;t\u009c')).toBe('<U+009B>2J<U+009D>0;t<U+009C>');
    expect(terminalText('\u202e(user)\u202c \u2066x\u2069 \u200e\u200f\u061c')).toBe(
      '<U+202E>(user)<U+202C> <U+2066>x<U+2069> <U+200E><U+200F><U+061C>',
    );
    expect(terminalText('one\r\ntwo\rfake$ ')).toBe('one\ntwo\nfake$ ');
    expect(terminalText('\ud800x\udc00')).toBe('<U+D800>x<U+DC00>');
  });

  it('cuts an escape sequence body that is very long, and an unterminated OSC at the line end', () => {
    const shown = terminalText(`\x1b]52;c;${'Q'.repeat(10_000)}\x07`);
    expect(shown.length).toBeLessThan(100);
    expect(shown).toMatch(/^\^\[\]52;c;Q+…\(10008 chars\)$/);
    expect(terminalText('\x1b]0;open\nnext line')).toBe('^[]0;open\nnext line');
  });

  it('shows binary as a short escaped preview with its byte count', () => {
    const binary = `\x7fELF\x02\x01\x01${'\x00'.repeat(2000)}\ufffd\ufffd`;
    expect(terminalText(binary)).toBe(binaryPreview(binary));
    expect(terminalText(binary)).toMatch(/^<binary, 2,013 bytes: \\x7fELF\\x02\\x01\\x01(\\x00)+…>$/);
    // A NUL or two in text is shown in place, not as binary.
    expect(terminalText('name\x00value')).toBe('name^@value');
  });

  it('keeps at most `max` characters and says how many were left out', () => {
    expect(terminalText('abcdef', { max: 4 })).toBe('abcd… (2 more characters)');
  });

  it('plainText drops colour and keeps the rest of the rules', () => {
    expect(plainText('\x1b[31mred\x1b[0m \x1b]0;t\x07')).toBe('red ^[]0;t^G');
  });

  it('visibleBidi touches only bidi controls', () => {
    expect(visibleBidi('<b>\u202e(user)\x1b[31m')).toBe('<b><U+202E>(user)\x1b[31m');
  });

  it('neutralises every hostile payload', () => {
    for (const { kind, text } of HOSTILE) {
      for (const clean of [terminalText(text), plainText(text)]) {
        expect(forbiddenIn(clean), kind).toEqual([]);
        if (kind.includes('osc') || kind.includes('dcs')) expect(clean, kind).toMatch(/\^\[|<U\+009D>/);
      }
    }
    expect(plainText(HOSTILE.find((h) => h.kind === 'osc0 title')!.text)).toBe(`^[]0;${MARK}-title^G`);
  });
});

describe('safeJson', () => {
  it('parses back to the same data and holds no control a terminal acts on', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 100 }), (value, text) => {
        for (const v of [value, { text }, [text, value]]) {
          const json = safeJson(v, 2);
          expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(v)));
          expect(forbiddenIn(json)).toEqual([]);
        }
      }),
      { numRuns: 1000 },
    );
    expect(safeJson('\u009b\u202e\x1b')).toBe('"\\u009b\\u202e\\u001b"');
  });
});

describe('terminalText properties', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .array(
        fc.constantFrom(
          '\x1b',
          '[',
          ']',
          '\\',
          'P',
          '_',
          '^',
          'X',
          '\x07',
          '\x9b',
          '\x9d',
          '\x9c',
          '\r',
          '\n',
          '\x00',
          '1',
          ';',
          'm',
          'H',
          '\u202e',
          '\u2066',
          '\ud800',
          'a',
          '\ufffd',
        ),
        { maxLength: 200 },
      )
      .map((a) => a.join('')),
  );

  it('never lets through an ESC outside a well-formed SGR, a C1, a bidi control, a NUL or a CR', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(forbiddenIn(terminalText(text))).toEqual([]);
        const plain = plainText(text);
        expect(forbiddenIn(plain)).toEqual([]);
        expect(plain).not.toContain('\x1b');
      }),
      { numRuns: 3000 },
    );
  });

  it('is bounded (at most 8 characters per input character, plus a fixed note) and idempotent', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = terminalText(text);
        expect(once.length).toBeLessThanOrEqual(text.length * 8 + 80);
        expect(terminalText(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });
});
