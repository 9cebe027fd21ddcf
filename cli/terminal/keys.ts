// What the person's keys become on the wire: the text before the detach key, cut into `terminal_input`
// messages the schema accepts (schema/terminal-input.ts, shared with the web page), and whether the
// detach key was pressed.
import { splitTerminalInput } from '../../schema/terminal-input.ts';

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
  return { chunks: splitTerminalInput(typed), detach: at !== -1 };
}
