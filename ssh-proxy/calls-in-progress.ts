// Which runs have a /v1/advance call in progress, and whether the worker asked to break into it.
// One call per run at a time: a second would share the run's SSH session and fork its state. The
// route claims a run, the call's stream releases it; POST /v1/break notes a break the graph reads.
import type { BreakKind } from '../schema/protocol.ts';

/** The one owner of "this run has a call in progress" and "a break was asked for this run's call". */
export class CallsInProgress {
  private readonly runs = new Map<string, BreakKind | null>();

  /** Takes the run for one call; false (and nothing taken) when the run already has one. */
  claim(runId: string): boolean {
    if (this.runs.has(runId)) return false;
    this.runs.set(runId, null);
    return true;
  }

  /** Gives the run back when its call ends, however it ends; a break asked for it goes with it. */
  release(runId: string): void {
    this.runs.delete(runId);
  }

  /** Whether the run has a call in progress. */
  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /**
   * Notes a break for the run's call, read at its next node boundary; false when it has no call.
   * A takeover outranks a yield: once asked, a later yield does not undo it.
   */
  askBreak(runId: string, kind: BreakKind): boolean {
    if (!this.runs.has(runId)) return false;
    if (this.runs.get(runId) !== 'takeover') this.runs.set(runId, kind);
    return true;
  }

  /** The break asked for the run's call, or null. */
  breakFor(runId: string): BreakKind | null {
    return this.runs.get(runId) ?? null;
  }

  /** How many runs have a call in progress, for health and benchmarks. */
  get size(): number {
    return this.runs.size;
  }
}
