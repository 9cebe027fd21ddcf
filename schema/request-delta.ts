// A model call's request stored as what changed since the run's previous call, so the bytes stored
// per call stay flat while a conversation grows (storing each request whole grows with the square
// of an attempt's length). `rebuildRequest` gives back the exact request from the chain.

/** A run of the previous request's messages, [start, end). */
type MessageRef = { $prev: [number, number] };

/** A request stored against the previous one. Anything that is not a Delta is a whole request. */
export type RequestDelta = {
  $delta: 1;
  /** The stored id of the previous call's request. */
  prev: string;
  /** Every top-level field, in the request's order; those not in `set` (or messages) equal the previous request's. */
  keys: string[];
  /** Top-level fields that are new or changed, messages aside. */
  set: Record<string, unknown>;
  /** The messages: whole ones, and runs of the previous request's. */
  messages?: (unknown | MessageRef)[];
};

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isDelta(value: unknown): value is RequestDelta {
  return isObject(value) && value.$delta === 1 && typeof value.prev === 'string';
}

/** A request's messages as JSON text, one each: what the next request is compared with. */
export type MessageTexts = { texts: string[]; firstAt: Map<string, number> };

/** The message texts of `request`, for encodeRequest's next call. */
export function messageTexts(request: unknown): MessageTexts | null {
  if (!isObject(request) || !Array.isArray(request.messages)) return null;
  const texts = request.messages.map((m) => JSON.stringify(m));
  const firstAt = new Map<string, number>();
  texts.forEach((text, i) => firstAt.has(text) || firstAt.set(text, i));
  return { texts, firstAt };
}

/**
 * `current` stored against `previous` (the previous call's whole request, id `prevId`); whole when
 * there is none. `prevTexts` and `currentTexts` (from messageTexts) save serialising the messages
 * again: each message is turned into text once over the whole chain.
 */
export function encodeRequest(
  previous: unknown,
  prevId: string | null,
  current: unknown,
  prevTexts = messageTexts(previous),
  currentTexts = messageTexts(current),
): unknown {
  if (prevId === null || !isObject(previous) || !isObject(current)) return current;
  const set: Obj = {};
  for (const [key, value] of Object.entries(current)) {
    if (key === 'messages' && prevTexts && currentTexts) continue;
    if (!(key in previous) || JSON.stringify(previous[key]) !== JSON.stringify(value)) set[key] = value;
  }
  const delta: RequestDelta = { $delta: 1, prev: prevId, keys: Object.keys(current), set };
  if (prevTexts && currentTexts) delta.messages = diffMessages(prevTexts, currentTexts, current.messages as unknown[]);
  return delta;
}

/** Each message is whole, or part of the longest run of the previous messages it starts. */
function diffMessages(previous: MessageTexts, current: MessageTexts, messages: unknown[]): (unknown | MessageRef)[] {
  const out: (unknown | MessageRef)[] = [];
  const prev = previous.texts;
  const now = current.texts;
  for (let i = 0; i < now.length; ) {
    const start = previous.firstAt.get(now[i]!);
    if (start === undefined) {
      out.push(messages[i]);
      i += 1;
      continue;
    }
    let length = 1;
    while (i + length < now.length && start + length < prev.length && now[i + length] === prev[start + length])
      length += 1;
    out.push({ $prev: [start, start + length] } satisfies MessageRef);
    i += length;
  }
  return out;
}

/**
 * The whole request stored under `id`, following deltas back through `lookup` (stored id → stored
 * request). Throws when a link in the chain is missing.
 */
export function rebuildRequest(id: string, lookup: (id: string) => unknown): unknown {
  const chain: RequestDelta[] = [];
  let stored = lookup(id);
  for (let hops = 0; isDelta(stored); hops++) {
    if (hops > 100_000) throw new Error(`request ${id}: the delta chain does not end`);
    chain.push(stored);
    const prev = stored.prev;
    stored = lookup(prev);
    if (stored === undefined) throw new Error(`request ${id}: the previous request ${prev} is missing`);
  }
  let request = stored;
  for (const delta of chain.reverse()) request = applyDelta(request as Obj, delta);
  return request;
}

function applyDelta(previous: Obj, delta: RequestDelta): Obj {
  const out: Obj = {};
  const prevMessages = previous.messages as unknown[];
  // Keys in the order the request had them, so the rebuilt request is the same text.
  for (const key of delta.keys) {
    if (key === 'messages' && delta.messages) {
      out.messages = delta.messages.flatMap((m) =>
        isObject(m) && Array.isArray(m.$prev) ? prevMessages.slice(m.$prev[0] as number, m.$prev[1] as number) : [m],
      );
    } else {
      out[key] = key in delta.set ? delta.set[key] : previous[key];
    }
  }
  return out;
}
