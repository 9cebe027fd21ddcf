// Text from a target or a model enters the agent's state here: control bytes made visible (`^[`,
// `<U+009B>`), binary shown as a short preview with its size, and everything capped in serialised
// bytes (its JSON in UTF-8), so a checkpoint's size is known however hostile the bytes were.
import { binaryPreview, controlStandIn, looksBinary } from '../../schema/terminal-text.ts';
import { capSerialised } from '../json-fit.ts';

/** The most serialised bytes (JSON, UTF-8, quotes included) each kind of text may take in the state. */
export const STATE_TEXT_BYTES = {
  /** A command's output as the model sees it (head and tail); the whole output is in the output event. */
  output: 4_000,
  /** The model's words before a turn, as kept in the attempt's history. */
  thinking: 2_000,
  /** A password candidate, a verdict on one, a tool call id. */
  short: 300,
  /** A lesson, a person's hint (up to 2,000 characters), an error message. */
  note: 6_100,
} as const;

/** The most serialised bytes a thinking event may take in the log (the state keeps less). */
export const THINKING_EVENT_BYTES = 64 * 1024;

/** The visible stand-in for one code point no reader should act on, or null when it is kept. */
function shown(code: number, next: number): string | null {
  // A CR before LF is a line end from a terminal; alone the model should see it was there (`^M`).
  if (code === 0x0d) return next === 0x0a ? '' : '^M';
  // A lone surrogate cannot be encoded as UTF-8; JSON would carry it as a six-byte escape.
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
  return controlStandIn(code);
}

/** Text with every control byte, C1 control, bidi control and lone surrogate made visible. */
export function visibleText(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    const stand = shown(code, text.charCodeAt(i + width));
    if (stand !== null) {
      out += text.slice(from, i) + stand;
      from = i + width;
    }
    i += width;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Target or model text as the state keeps it: made visible, binary replaced by its preview (`bytes`
 * is its size as received, when known), and capped at `maxBytes` serialised bytes.
 */
export function stateText(text: string, maxBytes: number, bytes?: number): string {
  return capSerialised(looksBinary(text) ? binaryPreview(text, bytes) : visibleText(text), maxBytes);
}
