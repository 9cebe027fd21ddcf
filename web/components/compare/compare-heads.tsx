// The two runs compared, side by side: id (a link to the run), model, status and what each was asked.
import type { CompareTotals, RunComparison, RunHead } from '../../../schema/run-compare.ts';
import { formatCost, formatDuration, formatTime } from '../../lib/format.ts';
import { Shown } from '../shown-text.tsx';
import { StatusBadge } from '../status-badge.tsx';

function Head({ name, head, totals }: { name: 'A' | 'B'; head: RunHead; totals: CompareTotals }) {
  return (
    <section className="panel compare-head" data-side={name} aria-label={`Run ${name}`}>
      <h2>
        {name} <a href={`/run?id=${encodeURIComponent(head.id)}`}>{head.id}</a>
      </h2>
      <p>
        <Shown text={head.model} /> · <StatusBadge status={head.status} />
      </p>
      <p className="muted">
        {head.target} · levels {head.startLevel}–{head.endLevel} · {head.maxRetries}{' '}
        {head.maxRetries === 1 ? 'retry' : 'retries'} · made {formatTime(head.createdAt)}
      </p>
      <p>
        {totals.levelsSolved} solved ({totals.levelsHelped} with help) · {totals.commands} commands ·{' '}
        {formatDuration(totals.wallTimeMs)} · {formatCost(totals.costUsd)}
      </p>
    </section>
  );
}

export function CompareHeads({ comparison }: { comparison: RunComparison }) {
  return (
    <div className="compare-heads">
      <Head name="A" head={comparison.a} totals={comparison.totals.a} />
      <Head name="B" head={comparison.b} totals={comparison.totals.b} />
    </div>
  );
}
