// Which runs have a /v1/advance call in progress. One call per run at a time: a second would share
// the run's SSH session and fork its state. The route claims a run, the call's stream releases it.

/** The one owner of "this run has a call in progress"; its size is the proxy's active runs. */
export class CallsInProgress {
  private readonly runs = new Set<string>();

  /** Takes the run for one call; false (and nothing taken) when the run already has one. */
  claim(runId: string): boolean {
    if (this.runs.has(runId)) return false;
    this.runs.add(runId);
    return true;
  }

  /** Gives the run back when its call ends, however it ends; releasing a free run does nothing. */
  release(runId: string): void {
    this.runs.delete(runId);
  }

  /** Whether the run has a call in progress. */
  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** How many runs have a call in progress, for health and benchmarks. */
  get size(): number {
    return this.runs.size;
  }
}
