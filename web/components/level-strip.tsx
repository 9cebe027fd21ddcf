'use client';
// One box per level of the run: how it ended (schema/level-outcome.ts), the one being played, or
// still to come. A mark on a solved box says a person or the final attempt had a part in it. A box
// jumps the transcript to that level. Once the run has ended no box is "current", and a stop that
// left the level past the range never shows a level the run does not have.
import type { LevelOutcome } from '../../schema/level-outcome.ts';
import { levelOutcome, OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import type { LevelFigures } from '../../schema/run-record.ts';
import { clampLevel } from '../lib/level-groups.ts';

const MARK: Partial<Record<LevelOutcome, string>> = {
  solved_by_final_attempt: 'f',
  solved_after_more_attempts: '+',
  solved_with_hint: 'h',
  solved_with_password: 'p',
};

export function LevelStrip({
  from,
  to,
  current,
  levels,
  ended = false,
  onJump,
}: {
  from: number;
  to: number;
  current: number;
  levels: ReadonlyMap<number, LevelFigures>;
  /** The run has ended: no level is being played. */
  ended?: boolean;
  /** Called with a level whose box was clicked and that has events to jump to. */
  onJump?: (level: number) => void;
}) {
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const solved = numbers.filter((level) => levels.get(level)?.solved).length;
  const playing = ended ? null : clampLevel(current, from, to);
  const label = `Levels ${from} to ${to}: ${solved} solved, ${playing === null ? 'the run has ended' : `now on level ${playing}`}`;
  return (
    <ol className="level-strip" aria-label={label} data-ended={ended}>
      {numbers.map((level) => {
        const figures = levels.get(level);
        const outcome = figures ? levelOutcome(figures) : null;
        const state = figures?.solved ? 'solved' : level === playing ? 'current' : figures ? 'left' : 'todo';
        const said = outcome && outcome !== 'not_solved' ? OUTCOME_TEXT[outcome].means : state;
        const mark = outcome ? MARK[outcome] : undefined;
        const title = `level ${level}: ${said}`;
        return (
          <li
            key={level}
            className={`level level-${state}${mark ? ' level-assisted' : ''}`}
            data-level={level}
            data-state={state}
            data-outcome={outcome ?? undefined}
            title={title}
          >
            {figures && onJump ? (
              <button type="button" className="level-jump" onClick={() => onJump(level)} aria-label={`Go to ${title}`}>
                {level}
                {mark && <sup aria-hidden="true">{mark}</sup>}
              </button>
            ) : (
              <>
                {level}
                {mark && <sup aria-hidden="true">{mark}</sup>}
              </>
            )}
          </li>
        );
      })}
    </ol>
  );
}
