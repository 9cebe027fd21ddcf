// Hands memory back after large releases. V8 collects freed file contents only when it next needs
// room, so a range whose /tmp was filled and emptied kept its peak for good (1.5 GiB after a 1.8 GiB
// fill). After enough bytes are released, one full collection runs, a second later, on its own.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes released before a collection is worth its pause (tens of milliseconds). */
const COLLECT_AFTER_BYTES = 16 * 1024 * 1024;

export class MemoryReturn {
  private released = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly collect: (() => void) | undefined;
  /** Collections run so far (tests and the attack benchmark read it). */
  collections = 0;

  constructor() {
    // The gc function exists only with --expose-gc; the flag set at run time exposes it to a new context.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    this.collect = typeof gc === 'function' ? (gc as () => void) : undefined;
  }

  /** Counts released bytes; past the threshold, schedules one collection. */
  note(bytes: number): void {
    this.released += bytes;
    if (this.released < COLLECT_AFTER_BYTES || this.timer || !this.collect) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.released = 0;
      this.collections++;
      this.collect?.();
    }, 1_000);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
