// Keystrokes on their way to the shared terminal: a paste longer than one `terminal_input` message
// allows is cut into several, never inside a UTF-16 surrogate pair. Shared by the web UI and the CLI.
import { MAX_TERMINAL_INPUT_CHARS } from './terminal.ts';

/** `data` as the `terminal_input` payloads to send in order, each at most `max` characters. */
export function splitTerminalInput(data: string, max = MAX_TERMINAL_INPUT_CHARS): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < data.length) {
    let end = Math.min(at + max, data.length);
    // A high surrogate last would leave its pair for the next message: cut before it.
    const last = data.charCodeAt(end - 1);
    if (end < data.length && end - at > 1 && last >= 0xd800 && last <= 0xdbff) end -= 1;
    chunks.push(data.slice(at, end));
    at = end;
  }
  return chunks;
}
