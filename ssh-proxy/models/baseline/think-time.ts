// The baseline's pace: it answers in microseconds, too fast for a person to follow. With a think time
// it writes its thinking out piece by piece over that time (live, as a streaming model does), then acts.

/**
 * Spends `paceMs` writing `text` to `live` a word at a time, evenly; resolves false when `signal`
 * ends it early. Measured on Date.now, the clock that stamps events, so an event after it is at least
 * `paceMs` later than one before it.
 */
export async function thinkFor(
  paceMs: number,
  text: string,
  signal: AbortSignal,
  live?: (text: string) => void,
): Promise<boolean> {
  const started = Date.now();
  const pieces = text.match(/\s*\S+/g) ?? [];
  const steps = Math.max(1, pieces.length);
  for (let i = 0; i < steps; i++) {
    const piece = pieces[i];
    if (piece && live) live(piece);
    if (!(await sleepUntil(started + Math.round((paceMs * (i + 1)) / steps), signal))) return false;
  }
  return true;
}

/** Waits until Date.now() reaches `at` (a timer may fire a millisecond early); false when aborted. */
async function sleepUntil(at: number, signal: AbortSignal): Promise<boolean> {
  while (Date.now() < at) {
    if (signal.aborted) return false;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, at - Date.now());
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }
  return !signal.aborted;
}
