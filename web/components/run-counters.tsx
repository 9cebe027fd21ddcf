'use client';
// Level, levels solved (and how many with a person's help), tokens, cost and elapsed time, all read
// off the one fold; the clock ticks while the run is not finished.
import { useRunClock } from '../lib/use-run-clock.ts';
import { formatCost, formatDuration } from '../lib/format.ts';
import { clampLevel } from '../lib/level-groups.ts';
import { isHelped, levelOutcome } from '../../schema/level-outcome.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';

export function RunCounters({ view }: { view: RunViewState }) {
  const now = useRunClock(view);
  const helped = [...view.record.levels.values()].filter((f) => isHelped(levelOutcome(f))).length;
  const elapsed = view.startedAt === null ? 0 : (view.endedAt ?? now) - view.startedAt;
  const items: [string, string, string][] = [
    // After the last level the run's "current" level is one past its range; the tile stays inside it.
    [
      'level',
      'Level',
      String(
        view.run
          ? clampLevel(view.currentLevel, view.run.config.startLevel, view.run.config.endLevel)
          : view.currentLevel,
      ),
    ],
    ['solved', 'Solved', helped ? `${view.solved.length} (${helped} with help)` : String(view.solved.length)],
    ['tokens', 'Tokens', `${(view.promptTokens + view.completionTokens).toLocaleString()}`],
    ['cost', 'Cost', formatCost(view.costUsd)],
    ['time', 'Time', formatDuration(elapsed)],
  ];
  return (
    <dl className="counters">
      {items.map(([key, label, value]) => (
        <div key={key} data-counter={key}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
