// What the run page's xterm writes, each byte once and in order: the stored `terminal_output` events a
// socket replays, and the live `terminal_data` that runs beside the same events on a live socket. Pure
// (no DOM), so the rule is tested in Node; the xterm attaches to it whenever it is made.
import type { RunEvent } from '../../schema/protocol.ts';

/** One thing for the xterm to do: write bytes, or take the size the holder's terminal has. */
export type FeedOp = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'size'; cols: number; rows: number };

/** base64 → bytes; null when it is not base64 (the chunk is skipped, not shown as garbage). */
export function decodeBase64(data: string): Uint8Array | null {
  try {
    const text = atob(data);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

const encoder = new TextEncoder();

/** A line of the page's own between sessions, dim; a name from the server cannot carry escapes. */
function note(text: string, leaveFullScreen: boolean): Uint8Array {
  const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return encoder.encode(`${leaveFullScreen ? '\x1b[?1049l' : ''}\x1b[0m\r\n\x1b[2m── ${plain} ──\x1b[0m\r\n`);
}

/**
 * Folds one page's socket into xterm operations. The events of a socket's replay (seq ≤ its snapshot)
 * are history; above it, stored chunks and live chunks carry the same bytes, so whichever stream is
 * ahead is written and the other only counts. Live bytes wait until the replay has reached the
 * snapshot, so history is never written after what followed it.
 */
export class TerminalFeed {
  private readonly ops: FeedOp[] = [];
  private readonly sinks = new Set<(op: FeedOp) => void>();
  /** The latest snapshot's seq: events above it arrived live on the current socket. */
  private liveFrom = 0;
  /** The last event folded. */
  private seen = 0;
  /** Bytes since `liveFrom` from each stream, on the current socket; max(live, stored) are written. */
  private live = 0;
  private stored = 0;
  /** Bytes at the head of the next replayed chunks that an earlier socket already wrote live. */
  private skip = 0;
  private held: Uint8Array[] = [];
  /** Sessions begun in the events so far. */
  sessions = 0;

  /** A socket's snapshot: the events up to `lastSeq` that it replays are history. */
  snapshot(lastSeq: number): void {
    this.skip += Math.max(0, this.live - this.stored);
    this.live = 0;
    this.stored = 0;
    this.held = [];
    this.liveFrom = lastSeq;
  }

  /** A stored event, once each, in seq order. */
  event(event: RunEvent): void {
    this.seen = event.seq;
    if (event.type === 'takeover_started') {
      this.sessions += 1;
      this.push({ kind: 'size', cols: event.cols, rows: event.rows });
      this.push({ kind: 'bytes', bytes: note(`${event.by} took the terminal at level ${event.level}`, false) });
    } else if (event.type === 'takeover_ended') {
      const proved = event.provedLevel === undefined ? '' : `; level ${event.provedLevel} proven`;
      this.push({ kind: 'bytes', bytes: note(`the terminal closed (${event.reason})${proved}`, true) });
    } else if (event.type === 'terminal_output') {
      const bytes = decodeBase64(event.data);
      if (bytes) this.storedChunk(bytes, event.seq > this.liveFrom);
    }
    if (this.seen >= this.liveFrom && this.held.length > 0) {
      const held = this.held;
      this.held = [];
      for (const bytes of held) this.liveChunk(bytes);
    }
  }

  /** A `terminal_data` message's base64 bytes. */
  data(base64: string): void {
    const bytes = decodeBase64(base64);
    if (!bytes) return;
    if (this.seen < this.liveFrom) this.held.push(bytes);
    else this.liveChunk(bytes);
  }

  /** Replays every operation so far to `sink`, then each new one; returns the detach. */
  attach(sink: (op: FeedOp) => void): () => void {
    for (const op of this.ops) sink(op);
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  private storedChunk(bytes: Uint8Array, isLive: boolean): void {
    if (!isLive) {
      const dropped = Math.min(this.skip, bytes.length);
      this.skip -= dropped;
      if (dropped < bytes.length) this.push({ kind: 'bytes', bytes: bytes.subarray(dropped) });
      return;
    }
    this.write(bytes, this.stored);
    this.stored += bytes.length;
  }

  private liveChunk(bytes: Uint8Array): void {
    this.write(bytes, this.live);
    this.live += bytes.length;
  }

  /** Writes the part of a chunk at stream offset `from` that neither stream has written yet. */
  private write(bytes: Uint8Array, from: number): void {
    const written = Math.max(this.live, this.stored);
    const fresh = from + bytes.length - written;
    if (fresh > 0) this.push({ kind: 'bytes', bytes: bytes.subarray(bytes.length - Math.min(fresh, bytes.length)) });
  }

  private push(op: FeedOp): void {
    this.ops.push(op);
    for (const sink of this.sinks) sink(op);
  }
}
