'use client';
// Starts a batch: the chosen models on the same levels, each run `repeats` times. Checked with the
// API's own schema first, so a message here is the one the API would give. Below the choices, the
// forecast of what they are likely to cost (forecast-preview.tsx).
import { Problem } from '../form-problem.tsx';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { createBatchSchema } from '../../../schema/board.ts';
import { HUMAN_MODEL } from '../../../schema/run.ts';
import type { ModelInfo } from '../../../schema/protocol.ts';
import { ApiFailure, createBatch, fetchModels } from '../../lib/api.ts';
import { ForecastPreview } from './forecast-preview.tsx';
import { WorldField } from '../world-field.tsx';
import type { World } from '../../../schema/worlds.ts';
import { defaultWorld } from '../../../schema/worlds.ts';

/** A number field's value: empty is unset. */
const num = (s: string) => (s.trim() === '' ? undefined : Number(s));

export function NewBatchForm() {
  const id = useId();
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [values, setValues] = useState({
    startLevel: '0',
    endLevel: '5',
    repeats: '2',
    maxRetries: '2',
    budget: '10',
    onPause: 'stop',
    maxCostUsd: '',
  });
  // A batch is a benchmark: each run plays in a world of its own unless the person shares one (schema/worlds.ts).
  const [world, setWorld] = useState<World>(defaultWorld('practice', { batch: true }));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    fetchModels()
      .then((all) => {
        // A person plays "human" level by level; a batch runs hands-off (schema/board.ts refuses it).
        const list = all.filter((m) => m.id !== HUMAN_MODEL);
        setModels(list);
        setChosen(
          list
            .filter((m) => m.available)
            .slice(0, 3)
            .map((m) => m.id),
        );
      })
      .catch((err: unknown) =>
        setProblem(`Could not list the models: ${err instanceof Error ? err.message : String(err)}`),
      );
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    const parsed = createBatchSchema.safeParse({
      models: chosen,
      startLevel: num(values.startLevel),
      endLevel: num(values.endLevel),
      repeats: num(values.repeats),
      maxRetries: num(values.maxRetries),
      budget: num(values.budget),
      onPause: values.onPause,
      world,
      ...(values.maxCostUsd.trim() ? { maxCostUsd: Number(values.maxCostUsd) } : {}),
    });
    if (!parsed.success)
      return setProblem(parsed.error.issues.map((i) => `${i.path.join('.') || 'batch'}: ${i.message}`).join('; '));
    setBusy(true);
    try {
      const batch = await createBatch(parsed.data);
      window.location.assign(`/batch?id=${batch.id}`);
    } catch (err) {
      setBusy(false);
      setProblem(err instanceof ApiFailure ? [err.message, ...err.issues].join(' — ') : String(err));
    }
  };
  const input = (name: keyof typeof values, label: string) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        type="number"
        inputMode="numeric"
        value={values[name]}
        onChange={(e) => setValues({ ...values, [name]: e.target.value })}
      />
    </div>
  );

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Start a batch</h2>
      <form onSubmit={(e) => void submit(e)} noValidate className="run-form">
        <fieldset className="model-choice">
          <legend>Models</legend>
          {models.map((m) => (
            <label key={m.id} className={m.available ? '' : 'muted'}>
              <input
                type="checkbox"
                name="models"
                value={m.id}
                disabled={!m.available}
                checked={chosen.includes(m.id)}
                onChange={(e) => setChosen(e.target.checked ? [...chosen, m.id] : chosen.filter((c) => c !== m.id))}
              />{' '}
              {m.id}
              {m.maxConcurrent ? <span className="muted"> (≤{m.maxConcurrent} at once)</span> : null}
              {m.available ? '' : ` — ${m.reason ?? 'unavailable'}`}
            </label>
          ))}
        </fieldset>
        {input('startLevel', 'From level')}
        {input('endLevel', 'To level')}
        {input('repeats', 'Runs per model')}
        {input('maxRetries', 'Max retries')}
        {input('budget', 'Commands per attempt')}
        {input('maxCostUsd', 'Batch cost cap $ (optional, over all its runs)')}
        <div className="field">
          <label htmlFor={`${id}-onPause`}>When a run would pause</label>
          <select
            id={`${id}-onPause`}
            name="onPause"
            value={values.onPause}
            onChange={(e) => setValues({ ...values, onPause: e.target.value })}
          >
            <option value="stop">stop it (hands-off comparison)</option>
            <option value="wait">wait for a person</option>
          </select>
        </div>
        <WorldField id={id} value={world} onChange={setWorld} />
        <ForecastPreview
          request={{
            models: chosen,
            startLevel: num(values.startLevel),
            endLevel: num(values.endLevel),
            repeats: num(values.repeats),
          }}
        />
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Starting…' : 'Start batch'}
          </button>
        </div>
        <Problem text={problem} />
      </form>
    </section>
  );
}
