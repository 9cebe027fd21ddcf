// A person's terminal as its bytes (issue 30): what a full-screen program draws must reach a terminal
// emulator as it was (cursor moves, erases, modes, colour), unlike the agent's output, which is shown,
// not obeyed (terminal-text.ts). What a screen never needs is dropped: OSC (titles, clipboard writes,
// hyperlinks), DCS/SOS/PM/APC strings, C1 controls and CSI window operations (`t`), so a hostile
// target cannot reach the watcher's clipboard or window through a recording or the CLI's `attach`.

/** The string-type escapes and C1 controls a screen is drawn without; CSI `t` (window ops) too. */
const DROPPED =
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b\[[0-?]*[ -/]*t|\x9b[0-?]*[ -/]*[@-~]|[\x80-\x9f]/g;

/** The bytes of a screen made safe to replay: everything but DROPPED, as it came. */
export function screenText(text: string): string {
  return text.replace(DROPPED, '');
}

/**
 * An escape sequence the chunk ends inside: a lone ESC, a CSI still taking parameters, an OSC, DCS,
 * SOS, PM or APC string not yet terminated. It is held for the next chunk, so a sequence split across
 * two (a program that prints ESC, sleeps, then the rest) is judged whole and cannot slip through.
 */
const INCOMPLETE = /(?:\x1b[\]PX^_](?:[^\x07\x1b]|\x1b(?!\\))*\x1b?|\x1b\[[0-?]*[ -/]*|\x9b[0-?]*[ -/]*|\x1b[ -/]*)$/;
/** A string sequence longer than this is not held: it is dropped, and so is what follows until its end. */
const HOLD_MAX = 4096;
const STRING_START = /^(?:\x1b[\]PX^_])/;
const STRING_END = /\x07|\x1b\\/;

/** Decodes base64 `terminal_output` chunks in order, keeping a UTF-8 character or an escape split across two whole. */
export class ScreenDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of an escape sequence the last chunk ended inside. */
  private held = '';
  /** Inside a string sequence too long to hold: dropped up to its terminator. */
  private inString = false;

  /** The text of the next chunk (base64), safe for a screen. */
  next(base64: string): string {
    let text = this.held + this.decoder.decode(bytesOf(base64), { stream: true });
    this.held = '';
    if (this.inString) {
      const end = STRING_END.exec(text);
      if (!end) {
        // An ESC at the very end may begin the terminator `ESC \`.
        this.held = text.endsWith('\x1b') ? '\x1b' : '';
        return '';
      }
      text = text.slice(end.index + end[0].length);
      this.inString = false;
    }
    const tail = INCOMPLETE.exec(text);
    if (tail?.[0]) {
      text = text.slice(0, tail.index);
      if (tail[0].length <= HOLD_MAX) this.held = tail[0];
      else if (STRING_START.test(tail[0])) this.inString = true;
    }
    return screenText(text);
  }
}

/** Any escape sequence: CSI, an OSC/DCS/SOS/PM/APC string, a charset choice, or ESC and one byte. */
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[()][0-9A-Za-z]|[ -/]*[0-~])/g;

/**
 * A screen's text without its escape sequences, each replaced by `by`: what the handback note, the
 * transcript and the proxy's password proof read of a session (the words, not how they were drawn).
 */
export function withoutEscapes(text: string, by = ''): string {
  return text.replace(ESCAPE_SEQUENCE, by);
}

/** The bytes of a base64 string (atob exists in browsers, workerd and Node alike). */
export function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
