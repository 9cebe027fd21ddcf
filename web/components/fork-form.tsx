'use client';
// The small form behind "Fork from here" (docs/forks.md): the step to start from and what to change (model,
// hint, cost cap; each optional). A new run starts there and the page moves to it; a refusal says why.
import { Problem } from './form-problem.tsx';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { forkBodySchema } from '../../schema/fork.ts';
import { issueList } from '../../schema/issues.ts';
import { forkRun } from '../lib/api.ts';

/** The fork form for run `runId`, starting at step `seq` unless the person picks another. */
export function ForkForm({
  runId,
  seq,
  atPause,
  onCancel,
}: {
  runId: string;
  seq: number;
  /** The step is a pause: the hint answers it in the fork; elsewhere the agent reads it as a message. */
  atPause: boolean;
  onCancel: () => void;
}) {
  const id = useId();
  const [step, setStep] = useState(String(seq));
  const [model, setModel] = useState('');
  const [hint, setHint] = useState('');
  const [cost, setCost] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = forkBodySchema.safeParse({
      seq: Number(step),
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(hint.trim() ? { hint: hint.trim() } : {}),
      ...(cost.trim() ? { caps: { maxCostUsd: Number(cost) } } : {}),
    });
    if (!parsed.success) return setProblem(issueList(parsed.error).join('; '));
    setBusy(true);
    setProblem(null);
    forkRun(runId, parsed.data)
      .then((run) => window.location.assign(`/run?id=${encodeURIComponent(run.id)}`))
      .catch((err: unknown) => {
        setBusy(false);
        setProblem(err instanceof Error ? err.message : String(err));
      });
  };
  return (
    <form className="fork-form" aria-label="Fork this run" onSubmit={submit}>
      <label htmlFor={`${id}-seq`}>Step (event seq)</label>
      <input id={`${id}-seq`} name="seq" inputMode="numeric" value={step} onChange={(e) => setStep(e.target.value)} />
      <label htmlFor={`${id}-model`}>Model</label>
      <input
        id={`${id}-model`}
        name="model"
        value={model}
        placeholder="the same as this run"
        onChange={(e) => setModel(e.target.value)}
      />
      <label htmlFor={`${id}-hint`}>
        {atPause
          ? 'Hint that answers the pause (a command in `backticks`)'
          : 'Hint, read by the agent at its next turn'}
      </label>
      <textarea id={`${id}-hint`} name="hint" rows={2} value={hint} onChange={(e) => setHint(e.target.value)} />
      <label htmlFor={`${id}-cost`}>Cost cap (US dollars)</label>
      <input
        id={`${id}-cost`}
        name="maxCostUsd"
        inputMode="decimal"
        value={cost}
        placeholder="the same as this run"
        onChange={(e) => setCost(e.target.value)}
      />
      <div className="fork-form-actions">
        <button type="submit" className="primary" data-action="fork-start" disabled={busy}>
          Start the fork
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <Problem text={problem} />
    </form>
  );
}
