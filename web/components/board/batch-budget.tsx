'use client';
// A batch's cost cap on its page: what its runs have spent (and hold for calls in progress) against it,
// and, once the cap is reached, a raise that lets its paused and waiting runs go on (docs/budgets.md).
import { useState } from 'react';
import type { Batch } from '../../../schema/board.ts';
import { raiseBatchSchema } from '../../../schema/board.ts';
import { describeIssues } from '../../../schema/issues.ts';
import { raiseBatch } from '../../lib/api.ts';
import { OperatorOnly } from '../operator-only.tsx';
import { formatCost } from '../../lib/format.ts';

export function BatchBudget({ batch, onRaised }: { batch: Batch; onRaised: (next: Batch) => void }) {
  const spend = batch.spend;
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!spend) return null;
  const ended = batch.progress.done === batch.progress.total;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = raiseBatchSchema.safeParse({ maxCostUsd: value.trim() === '' ? undefined : Number(value) });
    if (!parsed.success) return setProblem(describeIssues(parsed.error));
    setBusy(true);
    try {
      onRaised(await raiseBatch(batch.id, parsed.data.maxCostUsd));
      setProblem(null);
      setValue('');
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel batch-budget" aria-labelledby="batch-budget" data-reached={spend.reached}>
      <h2 id="batch-budget">Cost cap</h2>
      <p>
        <meter min={0} max={spend.maxCostUsd} value={spend.spentUsd} aria-label="Spent of the batch's cost cap" />{' '}
        <span data-batch-spent={spend.spentUsd}>
          {formatCost(spend.spentUsd)} spent of {formatCost(spend.maxCostUsd)}
        </span>
        {spend.reservedUsd > 0 && (
          <span className="muted"> · {formatCost(spend.reservedUsd)} held for calls in progress</span>
        )}
      </p>
      {spend.reached && (
        <p role="status">
          The cap is reached: the batch starts no more runs, and a run whose next call could cross it pauses there.
          Raise it to let them go on.
        </p>
      )}
      {!ended && (
        <OperatorOnly what="raising the cap">
          <form onSubmit={(e) => void submit(e)} className="inline-form">
            <label>
              New cap $ <input inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />
            </label>{' '}
            <button type="submit" disabled={busy}>
              Raise the cap
            </button>
            {problem && (
              <p role="alert" className="field-error">
                {problem}
              </p>
            )}
          </form>
        </OperatorOnly>
      )}
    </section>
  );
}
