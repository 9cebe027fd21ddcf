// One advance of a run, as its alarm runs it: a queued run starts, the agent's proxy call runs, its spend is
// settled and what comes next is decided (settle-call.ts). RunSession's alarm calls it when an advance is due.
import { readSettings } from '../env.ts';
import type { AgentCall } from './agent-call.ts';
import type { RunSessionParts } from './run-session-parts.ts';
import { settleCall } from './settle-call.ts';
import type { TerminalSeat } from './terminal-seat.ts';

/** The parts of a run's object an advance works through. */
export type AdvanceDeps = Pick<RunSessionParts, 'store' | 'life' | 'schedule' | 'budget'> & {
  env: Env;
  call: AgentCall;
  seat: TerminalSeat;
  /** The run's rows to D1; a failure is retried from the alarm, never thrown. */
  mirror: () => Promise<unknown>;
};

/**
 * Runs the agent for one proxy call (an advance), then schedules the next or waits for a person. The
 * advance due at `dueAt` stays scheduled until the call is over, so a crash mid-call runs it again.
 */
export async function advanceDue(d: AdvanceDeps, dueAt: number | null): Promise<void> {
  let run = d.store.summary();
  if (!run) return d.schedule.advanceDone(dueAt);
  const now = Date.now();
  if (run.status === 'queued') {
    // A run a person continued waited in the queue again; it started long ago.
    if (run.startedAt === null) d.store.update({ startedAt: now }, now);
    d.life.transition('queued', 'running', now, 'started');
    run = d.store.summary() ?? run;
  }
  if (run.status !== 'running') {
    d.schedule.advanceDone(dueAt);
    // An alarm that threw after its call stored the run's end (and workerd retried it) had not mirrored yet:
    // without this, D1 could say "queued" of a run its object holds completed. A mirror with nothing new sends nothing.
    await d.mirror();
    return;
  }
  const settings = readSettings(d.env);
  if (!settings.ok) {
    d.schedule.advanceDone(dueAt);
    d.life.pauseRun(run, 'proxy_unreachable', settings.message);
    await d.mirror();
    return;
  }
  const result = await d.call.run(run, settings.settings, d.seat.breakWanted);
  d.schedule.advanceDone(dueAt);
  // A call that yielded for more of its batch's money asks for it with the next reservation.
  if (result.kind === 'ended' && result.end.allowanceNeededUsd !== undefined)
    d.budget.needMore(result.end.allowanceNeededUsd);
  // The call's reservation is freed and its spend recorded; a run that made no call holds nothing to free.
  if (result.kind !== 'wait_for_batch') await d.budget.settle(run, Date.now());
  const after = d.store.summary() ?? run;
  settleCall({ store: d.store, life: d.life, schedule: d.schedule }, after, result, settings.settings);
  await d.mirror();
  await d.seat.afterCall();
}
