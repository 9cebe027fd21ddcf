// Output that is not text (the agent `cat`s an ELF file) would fill the terminal pane with garbage and
// control bytes. It is shown instead as its byte count and an escaped, clipped preview of its start.

/** How many characters of a binary output the preview shows, escaped. */
export const PREVIEW_CHARS = 64;
const SAMPLE = 4096;

/** Whether `text` reads as binary: a NUL, or more than 1 in 10 characters a control or replacement character. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, SAMPLE);
  if (sample.includes('\u0000')) return true;
  let odd = 0;
  for (const ch of sample) {
    const code = ch.codePointAt(0) ?? 0;
    // Tab, newline, carriage return and escape (colours) are a terminal's ordinary text.
    const control = (code < 0x20 && code !== 9 && code !== 10 && code !== 13 && code !== 27) || code === 0x7f;
    if (control || code === 0xfffd) odd++;
  }
  return sample.length > 0 && odd * 10 > sample.length;
}

/** UTF-8 bytes of `text`, as the target printed them (before any were replaced). */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The first `max` characters with every non-printable one written as \xNN, \uNNNN or \n: never raw. */
export function escapedPreview(text: string, max = PREVIEW_CHARS): string {
  let out = '';
  let taken = 0;
  for (const ch of text) {
    if (taken++ >= max) return `${out}…`;
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += `\\u{${code.toString(16)}}`;
  }
  return out;
}

/** The line a pane shows in place of binary output: its size and the escaped start. */
export function binarySummary(text: string): string {
  return `binary output, ${byteLength(text).toLocaleString('en')} bytes: ${escapedPreview(text)}`;
}
