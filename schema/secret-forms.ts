// The forms a secret takes when a shell or a model transforms it (base64, hex, reversed, spaced,
// URL-encoded, line-wrapped), precomputed once, so the proxy's redactor and the archive's redaction
// replace the same copies. A secret inside a longer base64 or hex blob is found at any alignment.

/** A secret and what replaces each of its forms. */
export type SecretReplacement = { value: string; placeholder: string };

/** Secrets compiled for one kind of text: literal forms (longest first) and one pattern for the rest. */
export type SecretForms = {
  literals: { form: string; placeholder: string }[];
  /** Spaced and line-wrapped copies; group `g${i}` matching means `placeholders[i]`. */
  pattern: RegExp | null;
  placeholders: string[];
  /** Per secret, a pattern matching an unfinished spaced copy at the end of a text (text mode only). */
  prefixes: RegExp[];
};

/** Shorter secrets are ignored: they would redact ordinary text. */
export const MIN_SECRET_LENGTH = 4;
/** Base64 and hex pieces shorter than this are not replaced on their own (a chance match in text). */
const MIN_PIECE = 8;
/** Spaced copies are looked for only for secrets up to this length (the pattern grows with it). */
const MAX_SPACED = 200;
/** What may stand between the characters of a spaced copy: the same one each time. */
const SEPARATORS = [' {1,3}', '\\t', '-', '_', '\\.', ',', ':', ';', '\\|', '/', '\\+'];
const LINE_BREAK = { text: '\\r?\\n', json: '(?:\\\\r)?\\\\n' };

const utf8 = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
const urlSafe = (b64: string) => b64.replaceAll('+', '-').replaceAll('/', '_');
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The base64 characters set by the secret's bytes alone when it sits after 0, 1 or 2 other bytes,
 * so a secret inside a longer base64 blob is found whatever its alignment.
 */
export function base64Pieces(bytes: Uint8Array): string[] {
  const pieces: string[] = [];
  for (const lead of [0, 1, 2]) {
    const encoded = base64(new Uint8Array([...new Uint8Array(lead), ...bytes])).replace(/=+$/, '');
    const start = [0, 2, 3][lead]!;
    const end = Math.floor(((lead + bytes.length) * 8) / 6);
    if (end - start >= MIN_PIECE) pieces.push(encoded.slice(start, end));
  }
  return pieces;
}

/** Every literal form of one secret, as it would stand in plain text. */
export function literalForms(secret: string): string[] {
  const bytes = utf8.encode(secret);
  const whole = base64(bytes);
  const lowerHex = hex(bytes);
  const percent = lowerHex.replace(/(..)/g, '%$1');
  const forms = [
    secret,
    [...secret].reverse().join(''),
    whole,
    urlSafe(whole),
    ...base64Pieces(bytes).flatMap((piece) => [piece, urlSafe(piece)]),
    lowerHex,
    lowerHex.toUpperCase(),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replaceAll('%20', '+'),
    percent,
    percent.toUpperCase(),
  ];
  return [...new Set(forms)].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
/** How a piece of plain text stands in the chosen kind of text. */
const shown = (text: string, json: boolean) => (json ? JSON.stringify(text).slice(1, -1) : text);
const charPatterns = (text: string, json: boolean) => [...text].map((c) => escapeRegExp(shown(c, json)));

/** A copy with one separator between every two characters, the same each time. */
function spacedPattern(secret: string, index: number, json: boolean): string | null {
  if ([...secret].length > MAX_SPACED) return null;
  const seps = json ? [...SEPARATORS, '\\\\n', '\\\\t', '\\\\r\\\\n'] : [...SEPARATORS, '\\r?\\n'];
  const [first, ...rest] = charPatterns(secret, json);
  return `${first}(?<s${index}>${seps.join('|')})${rest.join(`\\k<s${index}>`)}`;
}

/** A base64 or hex copy broken over lines (`base64` wraps at 76 columns, `xxd -p` at 60). */
function wrappedPattern(form: string, json: boolean): string {
  return [...form].map(escapeRegExp).join(`(?:${json ? LINE_BREAK.json : LINE_BREAK.text})?`);
}

/** A pattern matching the start of a spaced copy that more text may finish, at the text's end. */
function prefixPattern(secret: string): RegExp | null {
  if ([...secret].length > MAX_SPACED) return null;
  const chars = charPatterns(secret, false);
  let tail = '';
  for (let i = chars.length - 1; i >= 1; i--) tail = `(?:${chars[i]}(?:\\k<s>${tail})?)?`;
  return new RegExp(`${chars[0]}(?:(?<s>${SEPARATORS.join('|')}|\\r?\\n)${tail})?$`);
}

/** Compiles secrets for plain text or for JSON text (where each form stands as inside a JSON string). */
export function compileSecretForms(secrets: readonly SecretReplacement[], options: { json: boolean }): SecretForms {
  const { json } = options;
  const literals = new Map<string, string>();
  const alternatives: string[] = [];
  const placeholders: string[] = [];
  const prefixes: RegExp[] = [];
  for (const { value, placeholder } of secrets) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    for (const form of literalForms(value)) if (!literals.has(shown(form, json))) literals.set(shown(form, json), placeholder);
    const bytes = utf8.encode(value);
    const wrapped = [hex(bytes), hex(bytes).toUpperCase(), ...base64Pieces(bytes)].map((form) => wrappedPattern(form, json));
    const spaced = spacedPattern(value, placeholders.length, json);
    alternatives.push(`(?<g${placeholders.length}>${[...wrapped, ...(spaced ? [spaced] : [])].join('|')})`);
    placeholders.push(placeholder);
    const prefix = json ? null : prefixPattern(value);
    if (prefix) prefixes.push(prefix);
  }
  return {
    literals: [...literals].map(([form, placeholder]) => ({ form, placeholder })).sort((a, b) => b.form.length - a.form.length),
    pattern: alternatives.length ? new RegExp(alternatives.join('|'), 'g') : null,
    placeholders,
    prefixes,
  };
}

/** `text` with every form of every compiled secret replaced by its placeholder. */
export function replaceSecretForms(text: string, forms: SecretForms): string {
  let out = text;
  for (const { form, placeholder } of forms.literals) if (out.includes(form)) out = out.split(form).join(placeholder);
  if (!forms.pattern) return out;
  return out.replace(forms.pattern, (...args: unknown[]) => {
    const groups = args.at(-1) as Record<string, string | undefined>;
    const index = forms.placeholders.findIndex((_, i) => groups[`g${i}`] !== undefined);
    return forms.placeholders[index] ?? '';
  });
}
