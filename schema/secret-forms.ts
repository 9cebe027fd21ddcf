// The forms a secret takes when a shell or a model transforms it (base64, hex, reversed, spaced,
// URL-encoded, line-wrapped), precomputed once, so the proxy's redactor and the archive's redaction
// replace the same copies. A secret inside a longer base64 or hex blob is found at any alignment.

/** A secret and what replaces each of its forms. */
export type SecretReplacement = { value: string; placeholder: string };

/** Secrets compiled for one kind of text: literal forms (longest first), wrapped forms and one pattern for spaced copies. */
export type SecretForms = {
  json: boolean;
  literals: FormList;
  /** Hex and base64 forms, found in runs of such characters with their line breaks taken out. */
  wrapped: FormList;
  /** Spaced copies of short secrets; group `g${i}` matching means `placeholders[i]`. */
  pattern: RegExp | null;
  placeholders: string[];
  /** Per secret, a pattern matching an unfinished spaced copy at the end of a text (text mode only). */
  prefixes: RegExp[];
};

/**
 * Forms longest first; with many, an index by four characters from each form's middle (a key's start and
 * end are the same in every key) finds those a text holds in one pass.
 */
type FormList = { form: string; placeholder: string }[] & { index?: Map<string, { k: number; at: number }[]> };
/** Where a form's index characters start. */
const anchorOf = (form: string) => Math.max(0, Math.floor(form.length / 2) - 2);

/** Shorter secrets are ignored: they would redact ordinary text. */
export const MIN_SECRET_LENGTH = 4;
/** Base64 and hex pieces shorter than this are not replaced on their own (a chance match in text). */
const MIN_PIECE = 8;
/** Spaced copies are looked for only for secrets up to this length (the pattern grows with it). */
const MAX_SPACED = 200;
/** And only for this many secrets (the first ones given), so the pattern stays bounded however many a run shows. */
const MAX_SPACED_SECRETS = 64;
/** Past this many forms, a text is scanned once for the ones it holds rather than searched once per form. */
const INDEX_FROM = 1_000;
/** What may stand between the characters of a spaced copy: the same one each time. */
const SEPARATORS = [' {1,3}', '\\t', '-', '_', '\\.', ',', ':', ';', '\\|', '/', '\\+'];
/** The characters of a base64 (standard or url-safe) or hex run. */
const RUN_CHAR = /[A-Za-z0-9+/=_-]/;
const isRunChar = new Uint8Array(128).map((_, code) => Number(RUN_CHAR.test(String.fromCharCode(code))));
const runCharAt = (text: string, i: number) => isRunChar[text.charCodeAt(i)] === 1;
const BREAK = { text: /\r?\n/g, json: /(?:\\r)?\\n/g };

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
  const wrapped = new Map<string, string>();
  const alternatives: string[] = [];
  const placeholders: string[] = [];
  const prefixes: RegExp[] = [];
  for (const { value, placeholder } of secrets) {
    if (value.length < MIN_SECRET_LENGTH) continue;
    for (const form of literalForms(value))
      if (!literals.has(shown(form, json))) literals.set(shown(form, json), placeholder);
    const bytes = utf8.encode(value);
    for (const form of [hex(bytes), hex(bytes).toUpperCase(), ...base64Pieces(bytes)])
      if (!wrapped.has(form)) wrapped.set(form, placeholder);
    // Spaced copies need a pattern as long as the secret: only for short secrets, and only so many.
    if (placeholders.length >= MAX_SPACED_SECRETS) continue;
    const spaced = spacedPattern(value, placeholders.length, json);
    if (!spaced) continue;
    alternatives.push(`(?<g${placeholders.length}>${spaced})`);
    placeholders.push(placeholder);
    const prefix = json ? null : prefixPattern(value);
    if (prefix) prefixes.push(prefix);
  }
  const longestFirst = (forms: Map<string, string>): FormList => {
    const list: FormList = [...forms]
      .map(([form, placeholder]) => ({ form, placeholder }))
      .sort((x, y) => y.form.length - x.form.length);
    if (list.length > INDEX_FROM) {
      list.index = new Map();
      for (const [k, { form }] of list.entries()) {
        const at = anchorOf(form);
        const key = form.slice(at, at + MIN_SECRET_LENGTH);
        const entries = list.index.get(key);
        if (entries) entries.push({ k, at });
        else list.index.set(key, [{ k, at }]);
      }
    }
    return list;
  };
  return {
    json,
    literals: longestFirst(literals),
    wrapped: longestFirst(wrapped),
    pattern: alternatives.length ? new RegExp(alternatives.join('|'), 'g') : null,
    placeholders,
    prefixes,
  };
}

/** Where the forms stand in `text`, longest form first: each searched for, or with many, found in one pass by the index. */
function occurrences(text: string, forms: FormList): { k: number; i: number }[] {
  const found: { k: number; i: number }[] = [];
  if (!forms.index) {
    for (const [k, { form }] of forms.entries())
      for (let i = text.indexOf(form); i >= 0; i = text.indexOf(form, i + form.length)) found.push({ k, i });
    return found;
  }
  for (let i = 0; i + MIN_SECRET_LENGTH <= text.length; i++) {
    for (const { k, at } of forms.index.get(text.slice(i, i + MIN_SECRET_LENGTH)) ?? [])
      if (i >= at && text.startsWith(forms[k]!.form, i - at)) found.push({ k, i: i - at });
  }
  return found.sort((x, y) => x.k - y.k || x.i - y.i);
}

/** A run's characters with its line breaks taken out, and where each of them stands in the run. */
function joined(run: string, json: boolean): { text: string; at: number[] } {
  const at: number[] = [];
  let text = '';
  let from = 0;
  for (const lineBreak of run.matchAll(json ? BREAK.json : BREAK.text)) {
    text += run.slice(from, lineBreak.index);
    for (let i = from; i < lineBreak.index; i++) at.push(i);
    from = lineBreak.index + lineBreak[0].length;
  }
  text += run.slice(from);
  for (let i = from; i < run.length; i++) at.push(i);
  return { text, at };
}

/** Where each form `text` holds stands, longest first claiming its characters (a shorter form inside a longer one goes with it). */
function spansOf(text: string, forms: FormList): { start: number; end: number; placeholder: string }[] {
  const spans: { start: number; end: number; placeholder: string }[] = [];
  const taken = new Uint8Array(text.length);
  for (const { k, i } of occurrences(text, forms)) {
    const { form, placeholder } = forms[k]!;
    if (taken[i] || taken[i + form.length - 1]) continue;
    taken.fill(1, i, i + form.length);
    spans.push({ start: i, end: i + form.length, placeholder });
  }
  return spans.sort((x, y) => x.start - y.start);
}

/** `text` with the given spans replaced, in one pass. */
function replaced(text: string, spans: readonly { start: number; end: number; placeholder: string }[]): string {
  let out = '';
  let from = 0;
  for (const { start, end, placeholder } of spans) {
    out += text.slice(from, start) + placeholder;
    from = end;
  }
  return out + text.slice(from);
}

/** A run of base64 or hex broken over lines, with each wrapped form in it replaced (line breaks inside a copy go with it). */
function replaceWrapped(run: string, forms: SecretForms): string {
  const { text, at } = joined(run, forms.json);
  const spans = spansOf(text, forms.wrapped);
  return spans.length
    ? replaced(
        run,
        spans.map(({ start, end, placeholder }) => ({ start: at[start]!, end: at[end - 1]! + 1, placeholder })),
      )
    : run;
}

/**
 * `text` with each run of base64 or hex characters broken over lines searched for wrapped forms. Runs
 * are found from the line breaks outwards, so a long run without one costs nothing.
 */
function replaceWrappedRuns(text: string, forms: SecretForms): string {
  const runs: { start: number; end: number }[] = [];
  const [newline, carriage] = forms.json ? ['\\n', '\\r'] : ['\n', '\r'];
  for (let n = text.indexOf(newline); n >= 0; n = text.indexOf(newline, n + newline.length)) {
    const e = n + newline.length;
    const b = text.startsWith(carriage, n - carriage.length) ? n - carriage.length : n;
    if (!runCharAt(text, b - 1) || !runCharAt(text, e)) continue;
    const last = runs.at(-1);
    let end = e;
    while (runCharAt(text, end)) end++;
    if (last && last.end === b) {
      last.end = end;
      continue;
    }
    let start = b;
    while (start > (last?.end ?? 0) && runCharAt(text, start - 1)) start--;
    runs.push({ start, end });
  }
  // A run shorter than the shortest form cannot hold one (most are two words of a listing).
  const shortest = forms.wrapped.at(-1)!.form.length;
  const long = runs.filter(({ start, end }) => end - start >= shortest);
  if (!long.length) return text;
  let out = '';
  let from = 0;
  for (const { start, end } of long) {
    out += text.slice(from, start) + replaceWrapped(text.slice(start, end), forms);
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `text` with every form of every compiled secret replaced by its placeholder. Linear in the text for
 * any secret length: literal forms by search, wrapped ones by search in each multi-line base64 or hex
 * run, and only short secrets' spaced copies by one pattern of bounded size.
 */
export function replaceSecretForms(text: string, forms: SecretForms): string {
  let out = replaced(text, spansOf(text, forms.literals));
  if (forms.wrapped.length) out = replaceWrappedRuns(out, forms);
  if (!forms.pattern) return out;
  return out.replace(forms.pattern, (...args: unknown[]) => {
    const groups = args.at(-1) as Record<string, string | undefined>;
    const index = forms.placeholders.findIndex((_, i) => groups[`g${i}`] !== undefined);
    return forms.placeholders[index] ?? '';
  });
}

/**
 * How many characters at the end of `text` could be the start of a wrapped (multi-line) base64 or hex
 * form that more text would finish: the trailing run, line breaks included, is searched joined.
 */
export function unfinishedWrapped(text: string, forms: SecretForms): number {
  const longest = forms.wrapped[0]?.form.length ?? 0;
  if (!longest) return 0;
  // The trailing run of form characters and line breaks, no longer than a form with a break after every character.
  let start = text.length;
  while (
    start > 0 &&
    text.length - start < 3 * longest &&
    (runCharAt(text, start - 1) || text[start - 1] === '\n' || text[start - 1] === '\r')
  )
    start--;
  const tail = text.slice(start);
  if (!tail.includes('\n')) return 0;
  const { text: run, at } = joined(tail, false);
  let most = 0;
  for (const { form } of forms.wrapped) {
    for (let k = Math.min(form.length - 1, run.length); k > 0; k--) {
      if (run.endsWith(form.slice(0, k))) {
        most = Math.max(most, tail.length - at[run.length - k]!);
        break;
      }
    }
  }
  return most;
}
