// What the run page's xterm writes: the run's `terminal_output` events in seq order, each once (the
// socket client dedupes by seq), with each session's size and where it began and ended. Pure (no DOM),
// so it is tested in Node; the xterm attaches to it whenever it is made.
import type { RunEvent } from '../../schema/protocol.ts';
import { ScreenDecoder } from '../../schema/screen-bytes.ts';

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

/**
 * A line of the page's own between sessions, dim; a name from the server cannot carry escapes. At a
 * session's end it goes below everything: out of a full-screen program's screen, on the last row.
 */
function note(text: string, atEnd: boolean): Uint8Array {
  const plain = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return encoder.encode(`${atEnd ? '\x1b[?1049l\x1b[999;1H' : ''}\x1b[0m\r\n\x1b[2m── ${plain} ──\x1b[0m\r\n`);
}

/**
 * Folds the run's events into xterm operations, in seq order: each session's size, its stored chunks
 * (the one channel for the bytes, live and in a replay alike: docs/protocol.md), and a dim line of the
 * page's own where a session begins and ends. It keeps them all, so a screen made later starts whole.
 */
export class TerminalFeed {
  private readonly ops: FeedOp[] = [];
  private readonly sinks = new Set<(op: FeedOp) => void>();
  /** Sessions begun in the events so far. */
  sessions = 0;
  /** The session's bytes as text in order, less what reaches past a screen (the archive's and the CLI's rule). */
  private screen = new ScreenDecoder();

  /** A stored event, once each, in seq order (RunSocketClient's onEvent). */
  event(event: RunEvent): void {
    if (event.type === 'takeover_started') {
      this.sessions += 1;
      this.screen = new ScreenDecoder();
      this.push({ kind: 'size', cols: event.cols, rows: event.rows });
      this.push({ kind: 'bytes', bytes: note(`${event.by} took the terminal at level ${event.level}`, false) });
    } else if (event.type === 'takeover_ended') {
      const proved = event.provedLevel === undefined ? '' : `; level ${event.provedLevel} proven`;
      this.push({ kind: 'bytes', bytes: note(`the terminal closed (${event.reason})${proved}`, true) });
    } else if (event.type === 'terminal_output' && decodeBase64(event.data)) {
      // The holder's resize, stored with the output that follows it: a watcher's screen takes it first.
      if (event.cols !== undefined && event.rows !== undefined)
        this.push({ kind: 'size', cols: event.cols, rows: event.rows });
      // A chunk that ends inside a character writes nothing until the next completes it.
      const text = this.screen.next(event.data);
      if (text) this.push({ kind: 'bytes', bytes: encoder.encode(text) });
    }
  }

  /** Replays every operation so far to `sink`, then each new one; returns the detach. */
  attach(sink: (op: FeedOp) => void): () => void {
    for (const op of this.ops) sink(op);
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  private push(op: FeedOp): void {
    this.ops.push(op);
    for (const sink of this.sinks) sink(op);
  }
}
