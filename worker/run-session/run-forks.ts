// Forks inside a run's object (docs/forks.md): where a fork may start in this run's log (a step whose
// checkpoint is kept, a pause included), and how a new fork's object begins: the parent's events up to the
// fork are folded, not copied, the checkpoint there becomes its own, and a hint answers the pause or waits
// in the inbox as a message. Synchronous, so each runs inside one transaction.
import type { ForkChanges } from '../../schema/fork.ts';
import type { Checkpoint, PendingAction, RunEvent } from '../../schema/protocol.ts';
import type { RunConfig } from '../../schema/run.ts';
import { REPLAY_MODEL } from '../../schema/run.ts';
import { runTotals } from '../../schema/run-record.ts';
import type { LevelStats } from '../level-stats.ts';
import type { CheckpointHistory } from './checkpoint-history.ts';
import type { MessageInbox } from './message-inbox.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { EventText, ForkOrigin, RunStore } from './run-store.ts';
import { effectsOf } from './step-effects.ts';

/** Where a fork starts: the checkpoint kept at the step, and the pause there (if the run paused there). */
export type ForkPoint = { checkpoint: Checkpoint; pending: PendingAction | null };

/** A fork point, or why the seq cannot be one (invalid: HTTP 400; not_forkable: 409). */
export type ForkPointResult =
  | ({ ok: true; config: RunConfig } & ForkPoint)
  | { ok: false; code: 'invalid' | 'not_forkable'; message: string };

/** Everything a new fork's object starts from (its parent's events it reads itself: ForkLinks.fetchPrefix). */
export type ForkStart = ForkPoint & { origin: ForkOrigin; changes: ForkChanges; by: string };

/** The parts of a run's object a fork works through. */
export type ForkDeps = {
  store: RunStore;
  levels: LevelStats;
  history: CheckpointHistory;
  life: RunLifecycle;
  inbox: MessageInbox;
};

/**
 * Where a fork of this run at `seq` starts: the checkpoint kept there and the pause there, if any (a fork's
 * prefix must be loaded first). A seq before this run's own fork point is its parent's step: asked of the
 * parent (`askParent`), with this run's config.
 */
export async function forkPointOf(
  d: Pick<ForkDeps, 'store' | 'history'>,
  config: RunConfig,
  seq: number,
  askParent: (parentId: string) => Promise<ForkPointResult | null>,
): Promise<ForkPointResult | null> {
  if (config.model === REPLAY_MODEL)
    return {
      ok: false,
      code: 'invalid',
      message: "a verification run re-plays another run's commands and has no agent to fork; fork the original run",
    };
  const origin = d.store.origin();
  if (origin && seq < origin.forkSeq) {
    const theirs = await askParent(origin.parentId);
    return theirs?.ok ? { ...theirs, config } : theirs;
  }
  const checkpoint = d.history.isKept(seq) ? d.history.at(seq) : null;
  if (!checkpoint) return { ok: false, code: 'not_forkable', message: notKept(seq, d.history, d.store.lastSeq()) };
  const at = d.store.eventTextAfter(seq - 1, 1, Number.MAX_SAFE_INTEGER);
  return { ok: true, config, checkpoint, pending: pauseAt(at, seq) };
}

/** The refusal for a seq with no kept checkpoint, naming the nearest kept seqs on either side. */
export function notKept(seq: number, history: CheckpointHistory, lastSeq: number): string {
  const { before, after } = history.around(seq);
  const where = [
    before !== null ? `the nearest before is ${before}` : 'none is kept before it',
    after !== null ? `the nearest after is ${after}` : 'none after it',
  ].join(', ');
  const past = seq > lastSeq ? ` (the run's log ends at ${lastSeq})` : '';
  return `step ${seq} has no kept checkpoint${past}: a fork starts where a step ended or where the run paused; ${where}`;
}

/** The pause recorded at `seq` (the last of `events`), when the event there is one. */
export function pauseAt(events: readonly EventText[], seq: number): PendingAction | null {
  const row = events.at(-1);
  if (row?.seq !== seq) return null;
  const event = JSON.parse(row.json) as RunEvent;
  if (event.type !== 'user_action_required') return null;
  const { type: _type, seq: _seq, ts: _ts, runId: _runId, ...pending } = event;
  return pending;
}

/**
 * Begins a fork in its own new object, after store.create() with its origin: the parent's `events` fold into
 * the level figures and the run row (they stay the parent's, read from it), the checkpoint becomes the
 * fork's, then its own log starts with `forked`. At a pause, a hint answers it as a person's would; no hint
 * leaves the fork paused there. Elsewhere a hint waits in the inbox for the agent's next turn.
 */
export function beginFork(d: ForkDeps, start: ForkStart, events: readonly EventText[], now: number): void {
  d.store.setPrefix(events);
  const prefix = events.map((row) => JSON.parse(row.json) as RunEvent);
  d.levels.applyAll(prefix);
  d.store.update({ ...effectsOf(prefix), levelsSolved: runTotals(d.levels.record).levelsSolved }, now);
  d.store.setLoop({ checkpoint: start.checkpoint, resume: null });
  // The fork's own first kept step is where it starts, so a fork of this fork may start there too.
  d.history.add(start.origin.forkSeq, { checkpoint: start.checkpoint });
  d.life.record(
    { type: 'forked', parentId: start.origin.parentId, forkSeq: start.origin.forkSeq, changes: start.changes },
    now,
  );
  const hint = start.changes.hint;
  const run = d.store.summary();
  if (!run) return;
  if (start.pending && hint) {
    d.life.resolvePause({ action: 'continue', hint, by: start.by }, now);
    // As answerPause does: the graph is given the answer only when it asked for one.
    if (start.checkpoint.interrupt) d.store.setLoop({ resume: { action: 'continue', hint } });
  } else if (start.pending) {
    d.store.update({ pendingAction: start.pending, lastError: start.pending.lastError }, now);
    d.life.transition('queued', 'paused_for_user_action', now, `forked at a pause (${start.pending.reason})`);
  } else if (hint) {
    const sent = d.life.record({ type: 'message_sent', level: run.currentLevel, text: hint, by: start.by }, now);
    d.inbox.add(sent.seq, hint);
  }
}
