// Rows of run_levels written before the one outcome taxonomy (D1 migration 0008) have no outcome,
// and D1 cannot fold a log. Their run's object can: started, it folds its own event log once
// (worker/level-stats.ts) and its mirror upserts every level with its outcome. The board and the
// analytics wake such runs before they answer, a batch at a time, so an old run reads as a new one.
import type { MiddlewareHandler } from 'hono';
import { sessionFor } from './run-lookup.ts';

/** Runs woken per request: the first read after an upgrade pays for at most this many RPCs. */
const RUNS_PER_REQUEST = 20;
/** How long a request waits for those wake-ups before it answers anyway. */
const REFOLD_WAIT_MS = 2_000;

/**
 * Runs whose object holds no run (a D1 row with no log behind it, as a hand-made fixture or a D1
 * restored without its objects has): nothing can fold them, so this isolate stops asking.
 */
const orphans = new Set<string>();

/** Wakes up to RUNS_PER_REQUEST runs whose levels have no outcome yet; returns how many it woke. */
export async function refoldOldRuns(env: Env): Promise<number> {
  // run_levels_unfolded_idx holds exactly these rows, so once every run is folded this reads nothing.
  const { results } = await env.DB.prepare('SELECT DISTINCT run_id FROM run_levels WHERE outcome IS NULL LIMIT ?')
    .bind(RUNS_PER_REQUEST + orphans.size)
    .all<{ run_id: string }>();
  const ids = results
    .map((r) => r.run_id)
    .filter((id) => !orphans.has(id))
    .slice(0, RUNS_PER_REQUEST);
  const woken = await Promise.allSettled(ids.map((id) => sessionFor(env, id).refold()));
  for (const [i, result] of woken.entries()) {
    if (result.status === 'rejected')
      console.error(`run ${ids[i]}: folding its log again failed: ${String(result.reason)}`);
    else if (result.value === null) orphans.add(ids[i]!);
  }
  return ids.length;
}

/**
 * Middleware for the readers of outcomes (the board, analytics): old runs are woken first. A failure
 * here only leaves those rows for the next request; the handler reports D1 trouble itself.
 */
export const refoldFirst: MiddlewareHandler<{ Bindings: Env }> = async (c, next) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A slow object must not hold the page: past REFOLD_WAIT_MS the answer goes out and the wake-ups
  // finish in the background (waitUntil), to be read by the next request.
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), REFOLD_WAIT_MS);
  });
  const work = refoldOldRuns(c.env).catch((err: unknown) =>
    console.error(`folding old runs again failed: ${String(err)}`),
  );
  if ((await Promise.race([work, late])) === 'late') c.executionCtx.waitUntil(work);
  clearTimeout(timer);
  await next();
};
