// The read side of a run's object: its details, pages of its log, and what is folded from the log (diagnosis,
// timeline, the whole record). RunSession's RPC methods of the same names delegate here.
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { diagnose } from '../../schema/diagnose.ts';
import { buildTimeline } from '../../schema/timeline.ts';
import type { Timeline } from '../../schema/timeline.ts';
import type { TroubleCard } from '../../schema/failures.ts';
import { REPLAY_PAGE_BYTES } from './run-sockets.ts';
import type { SessionHost } from './run-session-parts.ts';

/** How far back in the log a diagnosis reads: the pause, its level's attempts and their errors. */
const DIAGNOSIS_EVENTS = 2_000;

/** Reads of a run's object; every one answers null when the object holds no run. */
export class RunReads {
  private readonly host: SessionHost;

  constructor(host: SessionHost) {
    this.host = host;
  }

  /** The run with its caps and spent figures and its batch's budget asked of the queue now (GET /api/runs/:id). */
  async details(): Promise<RunSummary | null> {
    const run = this.host.current();
    if (!run) return null;
    const { budget } = this.host.parts();
    await budget.refreshBatch(run);
    return { ...run, spend: budget.view(run, Date.now()) };
  }

  /**
   * A page of stored events after `since` as the JSON text of `{ events, lastSeq, nextSince }`: at most
   * `limit` events or about REPLAY_PAGE_BYTES, like a socket replay, built from the stored text.
   */
  async eventPage(since: number, limit: number): Promise<string | null> {
    if (!this.host.current()) return null;
    await this.host.withPrefix();
    return this.host.parts().store.eventPageJson(since, limit, REPLAY_PAGE_BYTES);
  }

  /** Why the run paused or ended badly, read from the tail of its log; null when it did not. */
  async diagnosis(): Promise<{ card: TroubleCard | null } | null> {
    await this.host.withPrefix();
    return this.host.current() ? { card: diagnose(this.host.parts().store.lastEvents(DIAGNOSIS_EVENTS)) } : null;
  }

  /** The run's spans (level → attempt → node → model call or command), folded from its whole log. */
  async timeline(): Promise<Timeline | null> {
    await this.host.withPrefix();
    if (!this.host.current()) return null;
    return { spans: buildTimeline(this.host.parts().store.lastEvents(Number.MAX_SAFE_INTEGER)) };
  }

  /**
   * What the archive reads before it pages the log: the run (with its caps as raised), its verifications and
   * the seq its log ends at now, so every pass over the log reads the same events however the run goes on.
   */
  async archiveHead(): Promise<{ run: RunSummary; verifications: string[]; lastSeq: number } | null> {
    const found = this.host.current();
    if (!found) return null;
    await this.host.withPrefix();
    const { store, budget } = this.host.parts();
    const run = { ...found, spend: budget.view(found, Date.now()) };
    return { run, verifications: store.verifications(), lastSeq: store.lastSeq() };
  }

  /** What the verification and compare routes read: the run, its whole log and its verifications. */
  async fullRecord(): Promise<{ run: RunSummary; events: RunEvent[]; verifications: string[] } | null> {
    const found = this.host.current();
    if (!found) return null;
    await this.host.withPrefix();
    const { store, budget } = this.host.parts();
    // The caps as raised live in the object, not the log: the archive's summary.json reads them here.
    const run = { ...found, spend: budget.view(found, Date.now()) };
    return { run, events: store.lastEvents(Number.MAX_SAFE_INTEGER), verifications: store.verifications() };
  }

  /** The seq of a model call in this run's log and the run it is indexed under (a fork's parent, for a shared call). */
  async callSeq(callId: string): Promise<{ seq: number; runId: string } | null> {
    await this.host.withPrefix();
    return this.host.current() ? this.host.parts().store.seqOfCall(callId) : null;
  }
}
