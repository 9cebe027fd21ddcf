// The time now, ticking each second while the run runs: the run page's live figures (elapsed time, wall
// time spent against a cap) read it, so a running run's clock moves without any event arriving.
import { useEffect, useState } from 'react';
import type { RunViewState } from '../../schema/run-view-state.ts';

/** Epoch ms, updated every second between the run's start and its end. */
export function useRunClock(view: RunViewState): number {
  const [now, setNow] = useState(() => Date.now());
  const ticking = view.startedAt !== null && view.endedAt === null;
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
