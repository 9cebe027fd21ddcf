// Rows of run_levels written before the one outcome taxonomy (D1 migration 0008) have no outcome,
// and D1 cannot fold a log. Their run's object can: started, it folds its own event log once
// (worker/level-stats.ts) and its mirror upserts every level with its outcome. The board and the
// analytics wake such runs before they answer, a batch at a time, so an old run reads as a new one.
import type { MiddlewareHandler } from 'hono';
import { sessionFor } from './run-lookup.ts';

/** Runs woken per request: the first read after an upgrade pays for at most this many RPCs. */
const RUNS_PER_REQUEST = 20;

/** Wakes up to RUNS_PER_REQUEST runs whose levels have no outcome yet; returns how many it woke. */
export async function refoldOldRuns(env: Env): Promise<number> {
  // run_levels_unfolded_idx holds exactly these rows, so once every run is folded this reads nothing.
  const { results } = await env.DB.prepare('SELECT DISTINCT run_id FROM run_levels WHERE outcome IS NULL LIMIT ?')
    .bind(RUNS_PER_REQUEST)
    .all<{ run_id: string }>();
  const woken = await Promise.allSettled(results.map((r) => sessionFor(env, r.run_id).refold()));
  for (const [i, result] of woken.entries())
    if (result.status === 'rejected')
      console.error(`run ${results[i]!.run_id}: folding its log again failed: ${String(result.reason)}`);
  return results.length;
}

/**
 * Middleware for the readers of outcomes (the board, analytics): old runs are woken first. A failure
 * here only leaves those rows for the next request; the handler reports D1 trouble itself.
 */
export const refoldFirst: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  await refoldOldRuns(c.env).catch((err: unknown) => console.error(`folding old runs again failed: ${String(err)}`));
  await next();
};
