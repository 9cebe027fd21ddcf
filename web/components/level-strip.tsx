// One box per level of the run: solved, current, or still to come.
export function LevelStrip({
  from,
  to,
  current,
  solved,
}: {
  from: number;
  to: number;
  current: number;
  solved: readonly number[];
}) {
  const levels = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  return (
    <ol
      className="level-strip"
      aria-label={`Levels ${from} to ${to}: ${solved.length} solved, now on level ${current}`}
    >
      {levels.map((level) => {
        const state = solved.includes(level) ? 'solved' : level === current ? 'current' : 'todo';
        return (
          <li
            key={level}
            className={`level level-${state}`}
            data-level={level}
            data-state={state}
            title={`level ${level}: ${state}`}
          >
            {level}
          </li>
        );
      })}
    </ol>
  );
}
