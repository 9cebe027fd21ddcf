// The one wait between a dropped run socket and the next try, for every client (web and CLI), so a
// flapping worker sees the same pressure from a browser tab as from a terminal.

/** The first wait after a drop; each further failure without a snapshot doubles it. */
export const RECONNECT_BASE_MS = 250;
/** The longest wait between two tries. */
export const RECONNECT_MAX_MS = 5_000;

/**
 * How long to wait before the next try after `failures` drops in a row (0 for the first). The count
 * is reset by a snapshot: a socket that got one was answered, so the next drop starts again at 250 ms.
 */
export function reconnectDelay(failures: number): number {
  return Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, failures));
}
