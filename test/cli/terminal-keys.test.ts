// The keys of `attach`: the detach key ends what is sent, and a paste is cut into terminal_input
// messages the protocol accepts, never between the halves of a character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientMessageSchema } from '../../schema/protocol.ts';
import { MAX_TERMINAL_INPUT_CHARS } from '../../schema/terminal.ts';
import { DETACH_KEY, readKeys } from '../../cli/terminal/keys.ts';
import { splitTerminalInput as chunkInput } from '../../schema/terminal-input.ts';

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('readKeys', () => {
  it('sends what comes before Ctrl-] and hands back; what follows it is dropped', () => {
    expect(readKeys('ls -la\r')).toEqual({ chunks: ['ls -la\r'], detach: false });
    expect(readKeys(`q${DETACH_KEY}rm -rf ~\r`)).toEqual({ chunks: ['q'], detach: true });
    expect(readKeys(DETACH_KEY)).toEqual({ chunks: [], detach: true });
    // Ctrl-C, Ctrl-D, escape sequences (arrows) go to the shell as they are.
    expect(readKeys('\x03\x04\x1b[A')).toEqual({ chunks: ['\x03\x04\x1b[A'], detach: false });
  });

  it('cuts a paste into messages of at most MAX_TERMINAL_INPUT_CHARS that each pass the schema', () => {
    const paste = 'x'.repeat(MAX_TERMINAL_INPUT_CHARS * 2 + 7);
    const { chunks } = readKeys(paste);
    expect(chunks.map((c) => c.length)).toEqual([MAX_TERMINAL_INPUT_CHARS, MAX_TERMINAL_INPUT_CHARS, 7]);
    for (const data of chunks)
      expect(clientMessageSchema.safeParse({ type: 'terminal_input', data }).success).toBe(true);
    expect(chunks.join('')).toBe(paste);
  });

  it('never splits a surrogate pair, whatever the text and the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 2, max: 9 }), (text, max) => {
        const chunks = chunkInput(text, max);
        expect(chunks.join('')).toBe(text);
        for (const c of chunks) {
          expect(c.length).toBeGreaterThan(0);
          expect(c.length).toBeLessThanOrEqual(max);
          expect(c).not.toMatch(LONE_SURROGATE);
        }
      }),
    );
    expect(chunkInput('a😀b', 2)).toEqual(['a', '😀', 'b']);
  });
});
