'use client';
// Starts a run. The fields are checked with runConfigSchema — the schema the API itself uses — so a
// message here is the message the API would give. Models come from /api/models.
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { ModelInfo } from '../../schema/protocol.ts';
import { runConfigSchema, targetSchema } from '../../schema/run.ts';
import { ApiFailure, createRun, fetchModels } from '../lib/api.ts';

const FIELDS = ['target', 'startLevel', 'endLevel', 'model', 'maxRetries', 'budget'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const DEFAULTS: Values = {
  target: 'practice',
  startLevel: '0',
  endLevel: '20',
  model: 'baseline',
  maxRetries: '3',
  budget: '15',
};
const LABELS: Record<Field, string> = {
  target: 'Target',
  startLevel: 'From level',
  endLevel: 'To level',
  model: 'Model',
  maxRetries: 'Max retries',
  budget: 'Commands per attempt',
};

/** Form strings → the config candidate; an empty number field stays empty so the schema names it. */
function candidate(values: Values): Record<string, unknown> {
  const number = (s: string) => (s.trim() === '' ? undefined : Number(s));
  return {
    target: values.target,
    startLevel: number(values.startLevel),
    endLevel: number(values.endLevel),
    model: values.model,
    maxRetries: number(values.maxRetries),
    budget: number(values.budget),
  };
}

export function NewRunForm() {
  const [values, setValues] = useState<Values>(DEFAULTS);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [models, setModels] = useState<ModelInfo[]>([{ id: 'baseline', provider: 'baseline', available: true }]);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    fetchModels(controller.signal)
      .then(setModels)
      .catch((err: unknown) => {
        if (!controller.signal.aborted)
          setProblem(
            `Could not list the models (${err instanceof Error ? err.message : String(err)}); baseline is offered.`,
          );
      });
    return () => controller.abort();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const parsed = runConfigSchema.safeParse(candidate(values));
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.code === 'invalid_type' ? 'enter a whole number' : issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const run = await createRun(parsed.data);
      window.location.assign(`/run?id=${run.id}`);
    } catch (err) {
      setBusy(false);
      setProblem(err instanceof ApiFailure ? [err.message, ...err.issues].join(' — ') : String(err));
    }
  };

  const field = (name: Field) => ({
    id: `${id}-${name}`,
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues({ ...values, [name]: e.target.value }),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const row = (name: Field, control: React.ReactNode) => (
    <div className="field" key={name}>
      <label htmlFor={`${id}-${name}`}>{LABELS[name]}</label>
      {control}
      {errors[name] && (
        <p id={`${id}-${name}-error`} className="field-error">
          {LABELS[name]} {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start a run</h2>
      <form onSubmit={(e) => void submit(e)} noValidate className="run-form">
        {row(
          'target',
          <select {...field('target')}>
            {targetSchema.options.map((t) => (
              <option key={t} value={t}>
                {t === 'practice' ? 'practice range (local)' : 'OverTheWire Bandit'}
              </option>
            ))}
          </select>,
        )}
        {row('startLevel', <input type="number" inputMode="numeric" {...field('startLevel')} />)}
        {row('endLevel', <input type="number" inputMode="numeric" {...field('endLevel')} />)}
        {row(
          'model',
          <select {...field('model')}>
            {models.map((m) => (
              <option key={m.id} value={m.id} disabled={!m.available}>
                {m.id}
                {m.available ? '' : ` — ${m.reason ?? 'unavailable'}`}
              </option>
            ))}
          </select>,
        )}
        {row('maxRetries', <input type="number" inputMode="numeric" {...field('maxRetries')} />)}
        {row('budget', <input type="number" inputMode="numeric" {...field('budget')} />)}
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Starting…' : 'Start run'}
          </button>
        </div>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
      </form>
    </section>
  );
}
