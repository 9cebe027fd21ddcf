'use client';
// The answer at a budget pause (issue 31): new limits, the cap that was hit prefilled at twice its
// limit and the run's other caps editable, sent as the raise action; the dialog's Stop is the other answer.
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { breachText, raisedLimit } from '../../schema/budget.ts';
import type { BudgetBreach, RunCap, RunCaps } from '../../schema/budget.ts';
import type { RunAction } from '../../schema/run.ts';
import { CAP_FIELDS, capsOfFields } from '../lib/budget.ts';

/** The fields' first values: each cap in force, the one hit raised (schema/budget.ts raisedLimit; a batch's cost cap is its own field). */
function firstValues(breach: BudgetBreach | undefined, caps: RunCaps): Partial<Record<RunCap, string>> {
  const values: Partial<Record<RunCap, string>> = {};
  for (const { cap, ofCap } of CAP_FIELDS) {
    const limit = breach?.cap === cap ? raisedLimit(breach, 2) : caps[cap];
    if (limit !== undefined) values[cap] = String(ofCap(limit));
  }
  return values;
}

/**
 * Raise: sends the caps whose limits changed (the one hit always), and the batch's new cost cap when
 * the batch's cap was hit. `onRaise` sends it; a refusal is shown by the dialog.
 */
export function RaiseForm({
  breach,
  caps,
  busy,
  onRaise,
}: {
  breach: BudgetBreach | undefined;
  caps: RunCaps;
  busy: boolean;
  onRaise: (action: RunAction) => void;
}) {
  const id = useId();
  const [values, setValues] = useState(() => firstValues(breach, caps));
  const batchHit = breach?.cap === 'batchMaxCostUsd';
  const [batchCap, setBatchCap] = useState(() => (batchHit ? String(raisedLimit(breach, 2)) : ''));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed = capsOfFields(values);
    const changed: Partial<Record<RunCap, number>> = {};
    for (const { cap } of CAP_FIELDS)
      if (typed[cap] !== undefined && (typed[cap] !== caps[cap] || breach?.cap === cap)) changed[cap] = typed[cap];
    onRaise({
      action: 'raise',
      ...(Object.keys(changed).length ? { caps: changed } : {}),
      ...(batchHit && batchCap.trim() !== '' ? { batchMaxCostUsd: Number(batchCap) } : {}),
    });
  };

  return (
    <form onSubmit={submit} className="modal-form raise-form" data-testid="raise-form">
      <p className="modal-breach" data-testid="breach">
        {breach ? breachText(breach) : 'The run paused at a budget cap; raise it to go on, or stop.'}
      </p>
      <div className="raise-fields">
        {batchHit && (
          <div className="field" data-cap="batchMaxCostUsd">
            <label htmlFor={`${id}-batch`}>Batch cost cap ($)</label>
            <input
              id={`${id}-batch`}
              type="number"
              inputMode="decimal"
              value={batchCap}
              onChange={(e) => setBatchCap(e.target.value)}
            />
          </div>
        )}
        {/* The cap hit comes first, so the dialog's focus lands on it. */}
        {[...CAP_FIELDS]
          .sort((a, b) => Number(b.cap === breach?.cap) - Number(a.cap === breach?.cap))
          .map(({ cap, label }) => (
            <div className="field" key={cap} data-cap={cap} data-hit={breach?.cap === cap ? 'true' : undefined}>
              <label htmlFor={`${id}-${cap}`}>
                {label}
                {breach?.cap === cap ? ' (the cap hit)' : ''}
              </label>
              <input
                id={`${id}-${cap}`}
                name={cap}
                type="number"
                inputMode="decimal"
                value={values[cap] ?? ''}
                placeholder="no cap"
                onChange={(e) => setValues({ ...values, [cap]: e.target.value })}
              />
            </div>
          ))}
      </div>
      <div className="modal-actions">
        <button type="submit" className="primary" disabled={busy}>
          Raise and continue
        </button>
      </div>
    </form>
  );
}
