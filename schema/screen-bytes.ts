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

/** Decodes base64 `terminal_output` chunks in order, keeping a UTF-8 character split across two whole. */
export class ScreenDecoder {
  private readonly decoder = new TextDecoder('utf-8');

  /** The text of the next chunk (base64), safe for a screen. */
  next(base64: string): string {
    return screenText(this.decoder.decode(bytesOf(base64), { stream: true }));
  }
}

/** The bytes of a base64 string (atob exists in browsers, workerd and Node alike). */
export function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
