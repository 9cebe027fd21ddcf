// What the person's keys become on the wire: the text before the detach key, cut into `terminal_input`
// messages the schema accepts (never splitting a character), and whether the detach key was pressed.
import { MAX_TERMINAL_INPUT_CHARS } from '../../schema/terminal.ts';

/** Ctrl-] (GS, 0x1d): the escape key of telnet and of `ssh -e`, so it is free in any shell. */
export const DETACH_KEY = '\x1d';

/** How the person names the detach key in messages. */
export const DETACH_KEY_NAME = 'Ctrl-]';

/** The keys of one read from the terminal, as messages to send, and whether to hand back after them. */
export type KeyRead = { chunks: string[]; detach: boolean };

/** Splits one read of keys at the detach key: what comes before it is sent, what comes after is dropped. */
export function readKeys(text: string): KeyRead {
  const at = text.indexOf(DETACH_KEY);
  const typed = at === -1 ? text : text.slice(0, at);
  return { chunks: chunkInput(typed), detach: at !== -1 };
}

/**
 * Cuts text into pieces of at most `max` UTF-16 units (what zod's max counts), never between the two
 * halves of a surrogate pair, so a pasted emoji arrives whole. Empty text gives no piece.
 */
export function chunkInput(text: string, max = MAX_TERMINAL_INPUT_CHARS): string[] {
  if (max < 2) throw new RangeError('a terminal_input chunk must hold at least 2 units (one surrogate pair)');
  const chunks: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + max, text.length);
    const last = text.charCodeAt(end - 1);
    // A high surrogate at the cut: its low half would start the next piece.
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
