// What a viewer or a share link reads of a run: everything the run page shows, less anything shaped like a level
// password (32 letters and digits standing alone, as every Bandit and practice-range password is) and any private
// key. The archive redacts the passwords the run proved; a live reader must not see one printed before it was
// proved, so here the shape decides (an md5 sum is hidden too: the price of never showing a password early).
// A terminal escape sequence ends in a letter (`\x1b[K`, `\x1b[m`, `\x1b(B`): one right before the word is a boundary
// too, or `grep --color` output (`\x1b[01;31m\x1b[K` + password) would show the password to a reader.
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[ -/]*[0-~])/.source;
const PASSWORD_SHAPE = new RegExp(`(?<=^|[^A-Za-z0-9]|${ESCAPE})[A-Za-z0-9]{32}(?![A-Za-z0-9])`, 'g');
const PRIVATE_KEY = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(-----END \1PRIVATE KEY-----|$)/g;

/** The placeholders a reader sees instead. */
export const READER_PASSWORD = '[REDACTED:password]';
export const READER_PRIVATE_KEY = '[REDACTED:private-key]';

/** One text with every password-shaped word and private key replaced. */
export function redactText(text: string): string {
  return text.replace(PRIVATE_KEY, READER_PRIVATE_KEY).replace(PASSWORD_SHAPE, READER_PASSWORD);
}

/** Base64 bytes (a terminal_output chunk) with the same done to the bytes' ASCII. */
function redactBase64(data: string): string {
  let bytes: string;
  try {
    bytes = atob(data);
  } catch {
    return data;
  }
  const redacted = redactText(bytes);
  return redacted === bytes ? data : btoa(redacted);
}

/** A JSON value with every string redacted; a terminal chunk's bytes are decoded, redacted and encoded again. */
export function redactForReader(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactForReader);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) {
    out[key] =
      key === 'data' && record.type === 'terminal_output' && typeof item === 'string'
        ? redactBase64(item)
        : redactForReader(item);
  }
  return out;
}

/** A JSON text as a reader may see it; a text that is not JSON is redacted as text. */
export function redactedJsonText(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactText(text);
  }
  return JSON.stringify(redactForReader(parsed));
}
