'use client';
// A level's one line in the folded transcript: its outcome, attempts, time and cost from the one fold
// (view.record, schema/run-record.ts), and a button that opens or folds its events.
import { levelOutcome, OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import type { LevelFigures } from '../../schema/run-record.ts';
import { formatCost, formatDuration } from '../lib/format.ts';

/** The figures of one level, or only its number while the fold has none. */
export function LevelFoldLine({
  level,
  figures,
  open,
  count,
  onToggle,
}: {
  level: number;
  figures: LevelFigures | undefined;
  open: boolean;
  count: number;
  onToggle: () => void;
}) {
  const outcome = !figures
    ? 'not started'
    : figures.solved
      ? `solved (${OUTCOME_TEXT[levelOutcome(figures)].label})`
      : 'not solved';
  const time = figures
    ? (figures.durationMs ?? (figures.endedAt !== null ? figures.endedAt - figures.startedAt : null))
    : null;
  const parts = [
    outcome,
    figures ? `${figures.attempts} ${figures.attempts === 1 ? 'attempt' : 'attempts'}` : null,
    time !== null ? formatDuration(time) : null,
    figures ? formatCost(figures.costUsd) : null,
    `${count} ${count === 1 ? 'entry' : 'entries'}`,
  ].filter(Boolean);
  return (
    <button type="button" className="fold-line" aria-expanded={open} onClick={onToggle}>
      <span aria-hidden="true">{open ? '▾' : '▸'}</span> <strong>Level {level}</strong>{' '}
      <span className="muted">{parts.join(' · ')}</span>
    </button>
  );
}
