// After a proxy call: wait for a person, finish, go again at once, or try again with backoff. The
// call's steps are stored already; this decides only what the run does next.
import type { RunSummary } from '../../schema/run.ts';
import type { WorkerSettings } from '../env.ts';
import type { LinkResult } from './proxy-link.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { RunSchedule } from './run-schedule.ts';
import type { RunStore } from './run-store.ts';

/** How long a run whose batch cannot yet spare its next call's worst case waits before asking again. */
export const BATCH_WAIT_MS = 200;

/** The parts of a run's object that the end of a call changes. */
export type SettleDeps = { store: RunStore; life: RunLifecycle; schedule: RunSchedule };

/** What happens after a call: wait for a person, finish, go again, or retry with backoff. */
export function settleCall(d: SettleDeps, run: RunSummary, result: LinkResult, settings: WorkerSettings): void {
  const now = Date.now();
  if (run.status !== 'running') return;
  if (result.kind === 'aborted') return;
  // The batch's other runs hold what is left of its cap for their calls; they free it when those end.
  if (result.kind === 'wait_for_batch') return d.schedule.nextAdvance(now + BATCH_WAIT_MS);
  if (result.kind === 'store_failed') {
    // Nothing of the step was kept (its transaction rolled back); going on would hit the same bug.
    console.error(`run ${run.id}: storing a step failed: ${result.message}`);
    return d.life.fail(run, `bandit-runner failed to store a step (a bug; please report it): ${result.message}`);
  }
  if (result.kind === 'refused') {
    if (result.code === 'not_interrupted') {
      d.store.setLoop({ resume: null });
      return d.schedule.nextAdvance(now);
    }
    return d.life.fail(run, `the proxy refused the run: ${result.message}`);
  }
  if (result.kind === 'retry') {
    const failures = d.store.proxyFailures() + 1;
    d.store.setLoop({ proxyFailures: failures });
    if (result.pause) return d.life.pauseRun(run, result.pause, result.message);
    if (failures >= settings.maxFailures) {
      return d.life.pauseRun(run, 'proxy_unreachable', `${result.message} (${failures} tries); continue tries again`);
    }
    const delay = settings.retryMs * 2 ** (failures - 1);
    d.life.record(
      {
        type: 'error',
        code: 'proxy_retry',
        message: `${result.message}; retrying in ${Math.round(delay / 100) / 10} s`,
        level: run.currentLevel,
      },
      now,
    );
    return d.schedule.nextAdvance(now + delay);
  }
  const { end } = result;
  switch (end.outcome) {
    case 'yielded':
      return d.schedule.nextAdvance(now);
    case 'interrupted':
      d.store.update({ pendingAction: end.interrupt ?? d.life.pauseFor(run, 'max_retries', run.lastError) }, now);
      d.life.transition(run.status, 'paused_for_user_action', now, end.interrupt?.reason ?? 'paused');
      d.life.handsOff(now);
      return;
    case 'completed':
    case 'stopped':
      // The proxy already sent run_complete as the step's last event.
      d.store.update({ endedAt: now }, now);
      return d.life.transition(
        run.status,
        end.outcome,
        now,
        end.outcome === 'completed' ? 'every level asked for is solved' : 'stopped',
      );
    case 'failed':
      return d.life.fail(run, end.error ?? 'the agent failed');
  }
}
