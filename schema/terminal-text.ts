// The one output sanitiser: text a target, a model, a person or a server wrote, made safe for a
// terminal or a text file. Printable text (every script, emoji, tab, newline) and colour (SGR) stay;
// every other control or escape is shown, not obeyed. Pure: the worker, the CLI and the web import it.
// The rules are written out in docs/cli.md#what-reaches-your-terminal (the page that owns them).

/** Characters of an escape sequence's body shown before it is cut with `…`. */
const SEQUENCE_SHOWN = 60;
/** Code units of a binary value shown, escaped, in its preview. */
const BINARY_SHOWN = 32;
/** A value is binary when it holds at least this many NUL, replacement or C0 characters... */
const BINARY_MIN = 8;
/** ...and they are at least this share of it. */
const BINARY_SHARE = 0.1;

/** Bidi controls that reorder text around them: embeddings, overrides, isolates and the marks. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** True for a bidi control code point (the BIDI set), for code that walks text by code point. */
const isBidiControl = (code: number): boolean =>
  code === 0x061c ||
  code === 0x200e ||
  code === 0x200f ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069);
const SGR = /^\x1b\[[0-9;:]*m$/;
/**
 * One token: an ESC sequence (CSI; OSC to BEL or ST; DCS/SOS/PM/APC to ST; any other ESC + byte), a
 * CR (with its LF), any other C0 but TAB and LF, DEL, a C1, a bidi control, or a lone surrogate.
 * OSC and string bodies stop at a newline, so an unterminated one cannot swallow the rest.
 */
const TOKEN =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[PX^_][^\x1b\n]*(?:\x1b\\)?|[ -/]*[0-~]?)|\r\n?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** One character a terminal could act on or misdraw, inside a sequence's body. */
const UNSAFE_CHAR =
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export type TextOptions = {
  /** Characters of the input kept; the rest is replaced by a note of how many were left out. */
  max?: number;
};

const hex = (code: number): string => code.toString(16).toUpperCase().padStart(4, '0');

/**
 * The visible text that stands for a control code point (C0 other than TAB and LF, DEL, C1, a bidi
 * control, a lone surrogate), or null for one that is kept: `^[`, `^?`, `<U+009B>`, `<U+202E>`.
 * The one table of stand-ins; the proxy's state text uses it too.
 */
export function controlStandIn(code: number): string | null {
  if (code === 0x09 || code === 0x0a) return null;
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  if ((code >= 0x80 && code <= 0x9f) || isBidiControl(code) || (code >= 0xd800 && code <= 0xdfff))
    return `<U+${hex(code)}>`;
  return null;
}

/** One character no terminal may act on, as the visible text that stands for it. */
function shown(char: string): string {
  return controlStandIn(char.charCodeAt(0)) ?? char;
}

/** A sequence's characters made visible: ESC as `^[`, BEL as `^G`, the body cut at SEQUENCE_SHOWN. */
function shownSequence(seq: string): string {
  const body = seq.length > SEQUENCE_SHOWN + 2 ? `${seq.slice(0, SEQUENCE_SHOWN + 2)}…(${seq.length} chars)` : seq;
  return body.replace(UNSAFE_CHAR, shown);
}

/** The UTF-8 length of a string, without TextEncoder, so the module needs nothing of its runtime. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** True when the text is mostly not text: NULs, invalid UTF-8 (U+FFFD) and control bytes in bulk. */
export function looksBinary(text: string): boolean {
  const odd = text.match(/[\x00-\x08\x0e-\x1a\x1c-\x1f\ufffd]/g)?.length ?? 0;
  return odd >= BINARY_MIN && odd >= text.length * BINARY_SHARE;
}

/**
 * A short, escaped preview of binary text and its size: `<binary, 35,120 bytes: \x7fELF\x02…>`.
 * `bytes` is the size as received when known (the text may have lost bytes to U+FFFD on decoding).
 */
export function binaryPreview(text: string, bytes: number = utf8Bytes(text)): string {
  const head = [...text.slice(0, BINARY_SHOWN)]
    .map((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      if (ch === '\\') return '\\\\';
      if (code >= 0x20 && code < 0x7f) return ch;
      if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
      // An invalid byte was decoded as U+FFFD; which byte it was is lost.
      return code === 0xfffd ? '\\x??' : `\\u{${code.toString(16)}}`;
    })
    .join('');
  return `<binary, ${bytes.toLocaleString('en-US')} bytes: ${head}${text.length > BINARY_SHOWN ? '…' : ''}>`;
}

/** SGR parameters that hide or flash text (conceal, blink); a target could hide a line from the reader. */
const HIDING_SGR = new Set(['5', '6', '8']);
const RESET = '\x1b[0m';

/** Whether an SGR sets only colour and weight: no concealed or blinking text. */
function harmlessSgr(token: string): boolean {
  const params = token.slice(2, -1).split(';');
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    // 38/48/58;5;n and ;2;r;g;b carry colour values, not attributes: 8 there is a colour index.
    if (p === '38' || p === '48' || p === '58') i += params[i + 1] === '5' ? 2 : params[i + 1] === '2' ? 4 : 0;
    else if (HIDING_SGR.has(p.replace(/^0+(?=\d)/, ''))) return false;
  }
  return true;
}

function clean(input: string, keepColour: boolean, options: TextOptions): string {
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const text = input.length > max ? input.slice(0, max) : input;
  const cutNote = input.length > max ? `… (${(input.length - max).toLocaleString('en-US')} more characters)` : '';
  if (looksBinary(text)) return binaryPreview(input);
  let coloured = false;
  const out = text.replace(TOKEN, (token) => {
    if (token[0] === '\r') return '\n';
    if (token[0] !== '\x1b') return shown(token);
    if (!SGR.test(token) || !harmlessSgr(token)) return shownSequence(token);
    if (!keepColour) return '';
    coloured = true;
    return token;
  });
  // Colour a text turned on ends with it, so it cannot run on into the CLI's own lines or the shell.
  const end = coloured && !/\x1b\[0*m$/.test(out + cutNote) ? RESET : '';
  return out + cutNote + end;
}

/**
 * Text for a terminal: printable text, tabs, newlines and colour (SGR, not conceal or blink, reset at
 * the end) kept; every other escape or
 * control shown as caret or `<U+XXXX>` text; a CR becomes a newline, so no line can be overwritten;
 * binary becomes a short preview with its byte count.
 */
export function terminalText(input: string, options: TextOptions = {}): string {
  return clean(input, true, options);
}

/** Text for a plain file (transcript.md, run.log): as terminalText, with colour removed too. */
export function plainText(input: string, options: TextOptions = {}): string {
  return clean(input, false, options);
}

/** Only the bidi controls made visible, for text a browser shows (it already escapes the rest). */
export function visibleBidi(input: string): string {
  return input.replace(BIDI, shown);
}

/**
 * JSON for a terminal or a pipe: JSON.stringify (which already escapes C0, ESC and lone surrogates),
 * with DEL, C1, bidi controls and the JS line separators written as `\uXXXX` too. It parses back to
 * exactly the same data; nothing in it is a control a terminal acts on.
 */
export function safeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(
    /[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
