// Models × levels: each cell's colour is its solve rate; the text says solved / runs, and how many
// of the solves needed a person. A table, so it reads well without colour and with a screen reader.
import type { LevelStats } from '../../../schema/analytics.ts';
import { formatDuration } from '../../lib/format.ts';

/** Red (0) through amber to green (1), dark enough for light text. */
const shade = (rate: number) => `hsl(${Math.round(rate * 120)} 55% ${22 + rate * 8}%)`;

export function LevelHeatmap({ cells }: { cells: LevelStats[] }) {
  if (cells.length === 0) return <p className="muted">No levels played in this window.</p>;
  const models = [...new Set(cells.map((c) => c.model))].sort();
  const levels = [...new Set(cells.map((c) => c.level))].sort((a, b) => a - b);
  const at = new Map(cells.map((c) => [`${c.model}\u0000${c.level}`, c]));
  return (
    <div className="table-scroll">
      <table className="heatmap" data-testid="heatmap">
        <thead>
          <tr>
            <th scope="col">model</th>
            {levels.map((l) => (
              <th key={l} scope="col">
                L{l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {models.map((model) => (
            <tr key={model}>
              <th scope="row">{model}</th>
              {levels.map((level) => {
                const cell = at.get(`${model}\u0000${level}`);
                if (!cell)
                  return (
                    <td key={level} className="empty">
                      ·
                    </td>
                  );
                const title = [
                  `${model}, level ${level}: solved ${cell.solved} of ${cell.runs} (${cell.solvedAlone} alone, ${cell.solvedWithHelp} with help)`,
                  `${cell.attempts} attempts, ${cell.retries} retries, ${cell.pauses} pauses${
                    cell.pauses
                      ? ` (${Object.entries(cell.pausesByReason)
                          .map(([reason, n]) => `${reason.replaceAll('_', ' ')} ${n}`)
                          .join(', ')})`
                      : ''
                  }`,
                  cell.medianCommandsToSolve === null
                    ? null
                    : `median ${cell.medianCommandsToSolve} commands, ${formatDuration(cell.medianTimeToSolveMs ?? 0)} to solve`,
                ]
                  .filter(Boolean)
                  .join('; ');
                return (
                  <td
                    key={level}
                    style={{ background: shade(cell.solveRate) }}
                    title={title}
                    data-cell={`${model}/${level}`}
                  >
                    {cell.solved}/{cell.runs}
                    {cell.solvedWithHelp ? (
                      <span className="helped" title={`${cell.solvedWithHelp} with help`}>
                        +{cell.solvedWithHelp}h
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
