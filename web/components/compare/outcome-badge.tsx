// A level's outcome as the run page's level strip shows it (web/components/level-strip.tsx): a green box
// when solved, marked when a person or the final attempt had a part, its words beside it.
import type { LevelOutcome } from '../../../schema/level-outcome.ts';
import { OUTCOME_TEXT } from '../../../schema/level-outcome.ts';

const ASSISTED: readonly LevelOutcome[] = [
  'solved_by_final_attempt',
  'solved_after_more_attempts',
  'solved_with_hint',
  'solved_with_password',
];

export function OutcomeBadge({ outcome }: { outcome: LevelOutcome }) {
  const state = outcome === 'not_solved' ? 'level-left' : 'level-solved';
  const assisted = ASSISTED.includes(outcome) ? ' level-assisted' : '';
  return (
    <span className={`level ${state}${assisted}`} data-outcome={outcome} title={OUTCOME_TEXT[outcome].means}>
      {OUTCOME_TEXT[outcome].label}
    </span>
  );
}
