// A run's object's side of forks (docs/forks.md): making this object's run as a fork, where a fork of it would
// start, its log's pages for a fork's prefix, and its list of forks. RunSession's RPC methods delegate here.
import type { ForkEntry } from '../../schema/fork.ts';
import type { RunConfig, RunSummary } from '../../schema/run.ts';
import { sessionFor } from '../run-lookup.ts';
import { PREFIX_PAGE_BYTES } from './fork-links.ts';
import { beginFork, forkPointOf } from './run-forks.ts';
import type { ForkPointResult, ForkStart } from './run-forks.ts';
import type { SessionHost } from './run-session-parts.ts';
import type { EventText } from './run-store.ts';

/** The fork RPCs of a run's object. */
export class ForkRpcs {
  private readonly host: SessionHost;

  constructor(host: SessionHost) {
    this.host = host;
  }

  /**
   * Creates this object's run as a fork: its log is the parent's up to `start.origin.forkSeq`, read from the
   * parent, then its own. Queued, or paused at the parent's pause when no hint answers it.
   */
  async createFork(runId: string, config: RunConfig, start: ForkStart): Promise<RunSummary | null> {
    const { ctx } = this.host;
    if (this.host.current()) return null;
    const parts = this.host.parts();
    // Read before the transaction: the parent's events up to the fork, folded into this run's figures.
    const events = await parts.forks.fetchPrefix(start.origin);
    const now = Date.now();
    const made = ctx.storage.transactionSync(() => {
      if (!parts.store.create(runId, config, now, start.origin)) return false;
      beginFork(parts, start, events, now);
      return true;
    });
    if (!made) return null;
    const run = await this.host.mirrorAndArm();
    return { ...run, spend: parts.budget.view(run, Date.now()) };
  }

  /**
   * Where a fork of this run at `seq` would start: the checkpoint kept there and the pause there, if any. A seq
   * before this run's own fork point is its parent's step, asked of the parent.
   */
  async forkPoint(seq: number): Promise<ForkPointResult | null> {
    const run = this.host.current();
    if (!run) return null;
    await this.host.withPrefix();
    const askParent = async (parentId: string) =>
      (await sessionFor(this.host.env, parentId).forkPoint(seq)) as ForkPointResult | null;
    return forkPointOf(this.host.parts(), run.config, seq, askParent);
  }

  /**
   * A page of this run's log after `since` and up to `through`, as stored text (a fork's prefix, read in pages
   * to stay under the RPC size limit), or null when this object holds no run.
   */
  async eventsThrough(through: number, since: number): Promise<EventText[] | null> {
    if (!this.host.current()) return null;
    await this.host.withPrefix();
    return this.host.parts().store.eventTextAfter(since, through - since, PREFIX_PAGE_BYTES);
  }

  /** Notes a fork made of this run, for its page's list. */
  async noteFork(runId: string, seq: number): Promise<boolean> {
    if (!this.host.current()) return false;
    this.host.parts().forks.note(runId, seq, Date.now());
    return true;
  }

  /** The forks made of this run, oldest first; null when this object holds no run. */
  async forks(): Promise<ForkEntry[] | null> {
    return this.host.current() ? this.host.parts().forks.list() : null;
  }
}
