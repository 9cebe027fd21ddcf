// The board's two tables: one row per model (ranked by levels solved alone per run), and the
// models × levels matrix where each cell counts its runs by how the level ended (schema/level-outcome.ts).
import type { LevelOutcome } from '../../../schema/level-outcome.ts';
import { OUTCOME_TEXT } from '../../../schema/level-outcome.ts';
import type { Board, BoardCell, BoardModel } from '../../../schema/board.ts';
import { boardRowKey } from '../../../schema/board.ts';
import { levelSetText } from '../../../schema/level-sets.ts';
import { WORLD_TEXT } from '../../../schema/worlds.ts';
import { rateText } from '../../../schema/board-stats.ts';
import { LIMIT_LABEL, LIMIT_REASONS, LIMIT_TEXT } from '../../../schema/budget.ts';
import { formatCost, formatDuration } from '../../lib/format.ts';

const num = (n: number, digits = 1) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));
const pct = (x: number) => `${Math.round(x * 100)} %`;

export function ModelBoard({ board }: { board: Board }) {
  if (board.models.length === 0) return <p className="muted">No runs match these filters yet.</p>;
  return (
    <div className="table-wrap">
      <table className="board-models">
        <caption className="sr-only">One row per model, best first</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Model</th>
            <th scope="col" title="The target and level set the row was measured on; two sets are never averaged">
              Level set
            </th>
            <th
              scope="col"
              title="Whether the row's runs played in the shared world or each in a private world of its own; the two are separate rows"
            >
              World
            </th>
            <th scope="col">Runs</th>
            <th scope="col">Levels solved / run</th>
            <th scope="col">Solved alone</th>
            <th
              scope="col"
              title="Levels solved alone of the levels its runs reached, with a 95 % Wilson score interval"
            >
              Alone rate (95 % CI)
            </th>
            <th scope="col" title="Levels solved at all (alone or helped) of the levels its runs reached, 95 % Wilson">
              Solved rate (95 % CI)
            </th>
            <th scope="col">Highest level</th>
            <th scope="col">Commands</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Cost / level</th>
            <th
              scope="col"
              title="Median over the solved levels (nearest rank): time from a level's start to its proof"
            >
              Median time / solved level
            </th>
            <th scope="col" title="Median over the solved levels (nearest rank): what the run spent at the level">
              Median cost / solved level
            </th>
            <th scope="col">Wall time</th>
            <th scope="col">Ended short</th>
          </tr>
        </thead>
        <tbody>
          {board.models.map((m, i) => (
            <tr key={boardRowKey(m)} data-model={m.model} data-level-set={m.levelSet} data-world={m.world}>
              <td>{i + 1}</td>
              <th scope="row">{m.model}</th>
              <td title={levelSetText(m.levelSet)}>{m.levelSet}</td>
              <td title={WORLD_TEXT[m.world]}>{m.world}</td>
              <td>{m.runs}</td>
              <td
                title={`min ${m.levelsSolvedPerRun.min}, max ${m.levelsSolvedPerRun.max}, sd ${num(m.levelsSolvedPerRun.sd, 2)}`}
              >
                {num(m.levelsSolvedPerRun.mean, 2)}{' '}
                <span className="muted">± {num(m.levelsSolvedPerRun.stderr, 2)}</span>
              </td>
              <td>
                {m.levelsSolvedAlone} <span className="muted">of {m.levelsSolved}</span>
              </td>
              <td data-alone-rate={m.aloneRate?.rate ?? ''}>{m.aloneRate ? rateText(m.aloneRate) : '—'}</td>
              <td data-solved-rate={m.solvedRate?.rate ?? ''}>{m.solvedRate ? rateText(m.solvedRate) : '—'}</td>
              <td>{m.highestLevel ?? '—'}</td>
              <td>{m.commands}</td>
              <td>{(m.tokens.prompt + m.tokens.completion).toLocaleString()}</td>
              <td>{formatCost(m.costUsd)}</td>
              <td>{m.costPerLevelSolved === null ? '—' : formatCost(m.costPerLevelSolved)}</td>
              <td data-median-ms={m.medianSolveMs ?? ''}>
                {m.medianSolveMs === null ? '—' : formatDuration(m.medianSolveMs)}
              </td>
              <td>{m.medianSolveCostUsd === null ? '—' : formatCost(m.medianSolveCostUsd)}</td>
              <td>{formatDuration(m.wallTimeMs)}</td>
              <td className="board-limits">
                <EndedShort limits={m.limits} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A model's runs that ended without completing, by why (schema/budget.ts): "3 cost cap · 1 retries". */
function EndedShort({ limits }: { limits: BoardModel['limits'] }) {
  const entries = LIMIT_REASONS.flatMap((reason) => {
    const n = limits[reason];
    return n ? [{ reason, n }] : [];
  });
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <>
      {entries.map(({ reason, n }, i) => (
        <span
          key={reason}
          title={`${n} ${n === 1 ? 'run' : 'runs'} ended at ${LIMIT_TEXT[reason]}`}
          data-limit={reason}
        >
          {i > 0 ? ' · ' : ''}
          {n} {LIMIT_LABEL[reason]}
        </span>
      ))}
    </>
  );
}

export function LevelMatrix({ board }: { board: Board }) {
  if (board.cells.length === 0) return null;
  const cells = new Map(board.cells.map((c) => [`${boardRowKey(c)}:${c.level}`, c]));
  // A model on two level sets, or in two kinds of world, has two rows: each names what sets it apart.
  const sets = new Set(board.models.map((m) => m.levelSet)).size;
  const worlds = new Set(board.models.map((m) => m.world)).size;
  return (
    <div className="table-wrap">
      <table className="board-matrix">
        <caption className="muted small">
          Per level, runs by how it ended: alone (✓), by the final attempt, after more attempts a person allowed, with a
          hint, with the person's password (pw), or not solved (✗).
        </caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            {board.levels.map((l) => (
              <th key={l} scope="col">
                L{l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {board.models.map((m) => (
            <tr key={boardRowKey(m)}>
              <th scope="row">
                {m.model}
                {sets > 1 || worlds > 1 ? (
                  <span className="muted small">
                    {' '}
                    ({[sets > 1 ? m.levelSet : '', worlds > 1 ? `${m.world} world` : ''].filter(Boolean).join(', ')})
                  </span>
                ) : null}
              </th>
              {board.levels.map((l) => (
                <Cell key={l} cell={cells.get(`${boardRowKey(m)}:${l}`)} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Each outcome a cell can count, in the order it shows them, with its sign. */
const SHOWN: [LevelOutcome, string][] = [
  ['solved_alone', '✓'],
  ['solved_by_final_attempt', 'final '],
  ['solved_after_more_attempts', 'more '],
  ['solved_with_hint', 'hint '],
  ['solved_with_password', 'pw '],
  ['not_solved', '✗'],
];

function Cell({ cell }: { cell: BoardCell | undefined }) {
  if (!cell)
    return (
      <td className="cell-none" aria-label="not reached">
        ·
      </td>
    );
  const kind = cell.alone === cell.runs ? 'alone' : cell.notSolved === cell.runs ? 'failed' : 'mixed';
  const passAt = (cell.passAt ?? [])
    .filter((p) => p.k > 1)
    .map((p) => `pass@${p.k} ${pct(p.value)}`)
    .join(', ');
  const median =
    cell.medianSolveMs === null
      ? ''
      : `; median ${formatDuration(cell.medianSolveMs)}${cell.medianSolveCostUsd === null ? '' : `, ${formatCost(cell.medianSolveCostUsd)}`} per solve`;
  const solved = `${cell.solvedRate ? `; solved ${rateText(cell.solvedRate)}` : ''}${passAt ? `; ${passAt}` : ''}${median}`;
  const label = `${SHOWN.filter(([o]) => cell.outcomes[o] > 0)
    .map(([o]) => `${cell.outcomes[o]} ${OUTCOME_TEXT[o].label}`)
    .join(', ')}, of ${cell.runs}${solved}`;
  return (
    <td
      className={`cell-${kind}`}
      title={label}
      aria-label={label}
      data-alone={cell.alone}
      data-helped={cell.helped}
      data-not-solved={cell.notSolved}
    >
      {SHOWN.filter(([o]) => cell.outcomes[o] > 0).map(([o, sign]) => (
        <span key={o} data-outcome={o}>
          {sign}
          {cell.outcomes[o]}{' '}
        </span>
      ))}
    </td>
  );
}
