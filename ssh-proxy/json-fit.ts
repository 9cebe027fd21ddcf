// Sizes and cuts JSON values by their serialised bytes (JSON.stringify's text in UTF-8): how large a
// line or a checkpoint will be before it is written, a string cut to a size, and a value with its
// largest strings cut until it fits a limit.

/** Serialised bytes of one code point inside a JSON string, as JSON.stringify writes it. */
function jsonCodeBytes(code: number): number {
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdfff) return 6;
  return code < 0x10000 ? 3 : 4;
}

/** JSON.stringify(text) in UTF-8 bytes, quotes included, without building it. */
export function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    bytes += jsonCodeBytes(code);
    i += code > 0xffff ? 2 : 1;
  }
  return bytes;
}

/**
 * Text cut to at most `maxBytes` serialised bytes: its head and tail with a note of what was cut
 * between them. Cuts fall between code points, so no half character is left.
 */
export function capSerialised(text: string, maxBytes: number): string {
  const total = jsonStringBytes(text);
  if (total <= maxBytes) return text;
  // The note is at most this long; the digits of the cut are at most those of the total.
  const noteBytes = jsonStringBytes(`\n… [${total} bytes cut] …\n`) - 2;
  const room = Math.max(0, maxBytes - 2 - noteBytes);
  let head = 0;
  let headBytes = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    const size = jsonCodeBytes(code);
    if (headBytes + size > Math.ceil(room / 2)) break;
    headBytes += size;
    i += code > 0xffff ? 2 : 1;
    head = i;
  }
  let tail = text.length;
  let tailBytes = 0;
  for (let i = text.length; i > head; ) {
    const low = text.charCodeAt(i - 1);
    const pair =
      low >= 0xdc00 &&
      low <= 0xdfff &&
      i - 2 >= head &&
      text.charCodeAt(i - 2) >= 0xd800 &&
      text.charCodeAt(i - 2) <= 0xdbff;
    const start = pair ? i - 2 : i - 1;
    const size = jsonCodeBytes(text.codePointAt(start)!);
    if (headBytes + tailBytes + size > room) break;
    tailBytes += size;
    i = start;
    tail = i;
  }
  const cut = total - 2 - headBytes - tailBytes;
  return `${text.slice(0, head)}\n… [${cut} bytes cut] …\n${text.slice(tail)}`;
}

/** Sizes of objects already measured. Values measured must not be changed afterwards (states never are). */
const measured = new WeakMap<object, number>();

/**
 * Bytes of JSON.stringify(value) in UTF-8. Objects are measured once each, so a state that shares
 * most of its parts with the last one costs only its new parts.
 */
export function jsonBytes(value: unknown): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return jsonStringBytes(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      break;
    default:
      return 4;
  }
  const known = measured.get(value);
  if (known !== undefined) return known;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) bytes += (item === undefined || typeof item === 'function' ? 4 : jsonBytes(item)) + 1;
    if (value.length) bytes -= 1;
  } else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    bytes = Buffer.byteLength(JSON.stringify(value));
  } else {
    let fields = 0;
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === 'function') continue;
      bytes += jsonStringBytes(key) + 1 + jsonBytes(item) + 1;
      fields += 1;
    }
    if (fields) bytes -= 1;
  }
  measured.set(value, bytes);
  return bytes;
}

/** One string a fit cut: where it sits (`history[12].output`), its size before and after. */
export type CutField = { path: string; bytes: number; kept: number };

type Leaf = { path: (string | number)[]; text: string; bytes: number };

/** Strings smaller than this are not cut: a fit that needs them has a state of many small parts. */
const MIN_CUT_BYTES = 400;

/**
 * `value` with its largest strings cut (head and tail kept) until it serialises to at most
 * `maxBytes`, and what was cut. Parts that were not cut are the same objects as before.
 */
export function fitJson<T>(value: T, maxBytes: number): { value: T; cuts: CutField[] } {
  let excess = jsonBytes(value) - maxBytes;
  if (excess <= 0) return { value, cuts: [] };
  const leaves: Leaf[] = [];
  collect(value, [], leaves);
  leaves.sort((a, b) => b.bytes - a.bytes);
  let fitted: unknown = value;
  const cuts: CutField[] = [];
  for (const leaf of leaves) {
    if (excess <= 0 || leaf.bytes <= MIN_CUT_BYTES) break;
    const text = capSerialised(leaf.text, Math.max(MIN_CUT_BYTES, leaf.bytes - excess));
    const kept = jsonStringBytes(text);
    if (kept >= leaf.bytes) continue;
    fitted = replaceAt(fitted, leaf.path, text);
    excess -= leaf.bytes - kept;
    cuts.push({ path: pathText(leaf.path), bytes: leaf.bytes, kept });
  }
  return { value: fitted as T, cuts };
}

function collect(value: unknown, path: (string | number)[], into: Leaf[]): void {
  if (typeof value === 'string') {
    const bytes = jsonStringBytes(value);
    if (bytes > MIN_CUT_BYTES) into.push({ path, text: value, bytes });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, [...path, i], into));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) collect(item, [...path, key], into);
  }
}

/** A copy of `root` with the value at `path` replaced; only the containers on the path are copied. */
function replaceAt(root: unknown, path: readonly (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(root)) {
    const copy = [...root];
    copy[key as number] = replaceAt(root[key as number], rest, next);
    return copy;
  }
  const object = root as Record<string, unknown>;
  return { ...object, [key]: replaceAt(object[key as string], rest, next) };
}

/** `["history", 12, "output"]` → `history[12].output`. */
export function pathText(path: readonly (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}
