// How often a crashed child may be started again: a few times a minute each, so a child that
// crashes at once on every start stops the stack instead of looping.

/** Counts restarts per name in a sliding window. */
export class RestartBudget {
  private readonly times = new Map<string, number[]>();
  private readonly limit: number;
  private readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  /** Takes one restart for `name`; false when its budget for the window is spent. */
  take(name: string, now = Date.now()): boolean {
    const recent = (this.times.get(name) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.limit) return false;
    recent.push(now);
    this.times.set(name, recent);
    return true;
  }
}
