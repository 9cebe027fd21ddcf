// Level by level, both runs side by side: outcome, attempts, commands, time, tokens and cost, a differing
// figure highlighted, a level whose steps differ marked, and links to where the level starts in each run.
import type { CompareLevel, CompareTotals, RunComparison } from '../../../schema/run-compare.ts';
import { formatCost, formatDuration } from '../../lib/format.ts';
import { OutcomeBadge } from './outcome-badge.tsx';

type Figures = NonNullable<CompareLevel['a']>;

/**
 * The figures a row shows, as shown. Two figures differ when what a person reads differs: a level's time
 * of 412 ms against 388 ms is "0s" in both, and is not marked.
 */
const FIGURES: { name: string; of: (f: Figures) => string }[] = [
  { name: 'attempts', of: (f) => String(f.attempts) },
  { name: 'commands', of: (f) => String(f.commands) },
  { name: 'time', of: (f) => (f.durationMs === null ? '—' : formatDuration(f.durationMs)) },
  { name: 'tokens', of: (f) => (f.promptTokens + f.completionTokens).toLocaleString('en-US') },
  { name: 'cost', of: (f) => formatCost(f.costUsd) },
];

function SideCells({ side, mine, theirs }: { side: 'a' | 'b'; mine: Figures | null; theirs: Figures | null }) {
  if (mine === null)
    return (
      <td colSpan={FIGURES.length + 1} className="muted" data-side={side} data-outcome="none">
        not reached
      </td>
    );
  return (
    <>
      <td
        data-side={side}
        data-outcome={mine.outcome}
        className={theirs !== null && theirs.outcome !== mine.outcome ? 'differs' : undefined}
      >
        <OutcomeBadge outcome={mine.outcome} />
      </td>
      {FIGURES.map(({ name, of }) => {
        const shown = of(mine);
        const differs = theirs !== null && of(theirs) !== shown;
        return (
          <td key={name} data-side={side} data-figure={name} className={differs ? 'differs' : undefined}>
            {shown}
          </td>
        );
      })}
    </>
  );
}

function Links({ level, comparison }: { level: CompareLevel; comparison: RunComparison }) {
  const link = (name: 'A' | 'B', runId: string, seq: number | null) =>
    seq === null ? null : (
      <a href={`/run?id=${encodeURIComponent(runId)}#seq-${seq}`} data-link={name} data-seq={seq}>
        {name}
      </a>
    );
  const a = link('A', comparison.a.id, level.firstSeq.a);
  const b = link('B', comparison.b.id, level.firstSeq.b);
  return (
    <td className="compare-links" aria-label={`Level ${level.level} in each run's events`}>
      {a}
      {a && b && ' · '}
      {b}
    </td>
  );
}

function TotalCells({ t }: { t: CompareTotals }) {
  return (
    <>
      <td>{t.levelsSolved} solved</td>
      <td>{t.attempts}</td>
      <td>{t.commands}</td>
      <td>{formatDuration(t.wallTimeMs)}</td>
      <td>{(t.promptTokens + t.completionTokens).toLocaleString('en-US')}</td>
      <td>{formatCost(t.costUsd)}</td>
    </>
  );
}

export function CompareTable({ comparison }: { comparison: RunComparison }) {
  const heads = ['Outcome', 'Attempts', 'Commands', 'Time', 'Tokens', 'Cost'];
  const short: Record<string, string> = { Attempts: 'Att.', Commands: 'Cmds' };
  return (
    <div className="table-wrap panel">
      <table className="compare-table">
        <caption className="sr-only">Each level, run A then run B; a figure that differs is highlighted</caption>
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              Level
            </th>
            <th scope="colgroup" colSpan={heads.length}>
              A
            </th>
            <th scope="colgroup" colSpan={heads.length}>
              B
            </th>
            <th scope="col" rowSpan={2}>
              Events
            </th>
          </tr>
          <tr>
            {[...heads, ...heads].map((h, i) => (
              <th scope="col" key={`${h}-${i < heads.length ? 'a' : 'b'}`}>
                {short[h] ? <abbr title={h}>{short[h]}</abbr> : h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {comparison.levels.map((l) => (
            <tr
              key={l.level}
              data-level={l.level}
              data-same={l.same}
              className={l.same ? undefined : 'compare-differs'}
            >
              <th scope="row">
                {l.level}
                {!l.same && (
                  <span className="compare-mark" title="The runs took different steps here">
                    {' '}
                    ≠
                  </span>
                )}
              </th>
              <SideCells side="a" mine={l.a} theirs={l.b} />
              <SideCells side="b" mine={l.b} theirs={l.a} />
              <Links level={l} comparison={comparison} />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-level="total">
            <th scope="row">Total</th>
            <TotalCells t={comparison.totals.a} />
            <TotalCells t={comparison.totals.b} />
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
