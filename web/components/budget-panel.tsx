'use client';
// The run's caps and what it has spent against each (issue 31), live: spent comes from the one fold
// (schema/run-spend.ts, as the Durable Object counts it), and the time cap ticks while the run goes on.
// Hidden when the run has no caps and no capped batch.
import { useAccess } from '../lib/use-access.ts';
import { useId } from 'react';
import { useRunClock } from '../lib/use-run-clock.ts';
import { formatCapValue, LIMIT_TEXT } from '../../schema/budget.ts';
import type { RunCap } from '../../schema/budget.ts';
import type { RunSummary } from '../../schema/run.ts';
import { spentOf } from '../../schema/run-spend.ts';
import type { RunViewState } from '../../schema/run-view-state.ts';
import { batchCapInForce, capRows, capsInForce } from '../lib/budget.ts';

const LABELS: Record<RunCap, string> = {
  maxCostUsd: 'Cost',
  maxTokens: 'Tokens',
  maxWallSeconds: 'Time',
  maxCommands: 'Commands',
  maxModelCalls: 'Model calls',
};

/** A native meter: green below 80 % of the limit, amber from there, red once reached. */
function Bar({ spent, limit, label }: { spent: number; limit: number; label: string }) {
  return (
    <meter
      className="budget-bar"
      min={0}
      max={limit}
      value={Math.min(spent, limit)}
      low={limit * 0.8}
      high={limit * 0.999}
      optimum={0}
      aria-label={label}
    />
  );
}

/** The run's caps, each as a bar with "spent of limit"; the batch's cost cap too, when it has one. */
export function BudgetPanel({ run, view }: { run: RunSummary; view: RunViewState }) {
  const id = useId();
  const now = useRunClock(view);
  const rows = capRows(capsInForce(run, view.events), spentOf(view.record, now));
  const batchCap = batchCapInForce(run, view.events);
  const batch = run.spend?.batch ?? null;
  // A share link opens this run alone: no link to the batch's page, which would refuse it.
  const { share } = useAccess();
  if (rows.length === 0 && batchCap === null) return null;
  return (
    <section className="panel budget-panel" aria-labelledby={`${id}-title`} data-testid="budget-panel">
      <h2 id={`${id}-title`}>Budget</h2>
      <ul className="budget-rows">
        {rows.map((r) => (
          <li key={r.cap} data-cap={r.cap} data-spent={r.spent} data-limit={r.limit}>
            <span className="budget-label">{LABELS[r.cap]}</span>
            <Bar spent={r.spent} limit={r.limit} label={LIMIT_TEXT[r.cap]} />
            <span className="budget-figures">
              {formatCapValue(r.cap, r.spent)} of {formatCapValue(r.cap, r.limit)}
            </span>
          </li>
        ))}
        {batchCap !== null && batch && (
          <li data-cap="batchMaxCostUsd" data-spent={batch.spentUsd} data-limit={batchCap}>
            <span className="budget-label">Batch cost</span>
            <Bar spent={batch.spentUsd} limit={batchCap} label={LIMIT_TEXT.batchMaxCostUsd} />
            <span className="budget-figures">
              {formatCapValue('batchMaxCostUsd', batch.spentUsd)} of {formatCapValue('batchMaxCostUsd', batchCap)}{' '}
              {share ? (
                <span className="muted">(all of batch {batch.id}'s runs, when this page loaded)</span>
              ) : (
                <a href={`/batch?id=${batch.id}`} className="muted">
                  (all of batch {batch.id}'s runs, when this page loaded)
                </a>
              )}
            </span>
          </li>
        )}
      </ul>
    </section>
  );
}
