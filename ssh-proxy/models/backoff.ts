// Waiting between retries: exponential with jitter (so many runs hitting one endpoint spread out),
// and a sleep that ends early when the request is aborted.

/** The wait before retry number `retry` (1 = first retry): base·2^(retry-1), capped, with jitter in its upper half. */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** (retry - 1));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
