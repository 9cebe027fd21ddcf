// One box per level of the run: how it ended (schema/level-outcome.ts), the one being played, or
// still to come. A mark on a solved box says a person or the final attempt had a part in it.
import type { LevelOutcome } from '../../schema/level-outcome.ts';
import { levelOutcome, OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import type { LevelFigures } from '../../schema/run-record.ts';

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
}: {
  from: number;
  to: number;
  current: number;
  levels: ReadonlyMap<number, LevelFigures>;
}) {
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const solved = numbers.filter((level) => levels.get(level)?.solved).length;
  return (
    <ol className="level-strip" aria-label={`Levels ${from} to ${to}: ${solved} solved, now on level ${current}`}>
      {numbers.map((level) => {
        const figures = levels.get(level);
        const outcome = figures ? levelOutcome(figures) : null;
        const state = figures?.solved ? 'solved' : level === current ? 'current' : 'todo';
        const said = outcome && outcome !== 'not_solved' ? OUTCOME_TEXT[outcome].means : state;
        const mark = outcome ? MARK[outcome] : undefined;
        return (
          <li
            key={level}
            className={`level level-${state}${mark ? ' level-assisted' : ''}`}
            data-level={level}
            data-state={state}
            data-outcome={outcome ?? undefined}
            title={`level ${level}: ${said}`}
          >
            {level}
            {mark && <sup aria-hidden="true">{mark}</sup>}
          </li>
        );
      })}
    </ol>
  );
}
