// The run's D1 index kept up from its object: the run row, the outbox's queued rows and the levels
// whose figures changed, sent together. A D1 failure is scheduled for a retry with backoff, never
// thrown: the action or advance it follows was already applied.
import { runTotals } from '../../schema/run-record.ts';
import type { RunSummary } from '../../schema/run.ts';
import { sendToD1 } from '../d1-mirror.ts';
import type { MirrorRows } from '../d1-mirror.ts';
import { mirrorRetryMs } from '../env.ts';
import type { LevelStats } from '../level-stats.ts';
import type { D1Outbox } from './d1-outbox.ts';
import type { RunSchedule } from './run-schedule.ts';
import type { RunStore } from './run-store.ts';
import type { ObjectUsage } from '../object-usage.ts';

/** The parts of a run's object the mirror reads and updates. */
export type MirrorDeps = {
  env: Env;
  store: RunStore;
  outbox: D1Outbox;
  levels: LevelStats;
  schedule: RunSchedule;
  /** D1's rows are counted there. */
  usage: ObjectUsage;
};

/** Sends the run row and the queued rows to D1 and returns the run. */
export async function mirrorRun(d: MirrorDeps): Promise<RunSummary> {
  const run = d.store.summary();
  if (!run) throw new Error('mirror() before create()');
  d.outbox.touch();
  // Level roll-ups are sent whole (an upsert), so a batch sent twice changes nothing.
  const levels = d.levels.unsent();
  const send = async (rows: MirrorRows) =>
    d.usage.d1(
      await sendToD1(
        d.env,
        d.store.summary() ?? run,
        runTotals(d.levels.record),
        rows,
        levels.map((l) => l.row),
      ),
    );
  const result = await d.outbox.flush(send, mirrorRetryMs(d.env), Date.now);
  if (result.ok) {
    d.levels.sent(levels);
    d.schedule.mirror(null);
  } else {
    console.error(
      `run ${run.id}: D1 mirror failed, the rows of ${d.outbox.pending()} steps kept, retrying: ${result.error}`,
    );
    d.schedule.mirror(result.retryAt);
  }
  return d.store.summary() ?? run;
}
