'use client';
// Starts a run. The fields are checked with runConfigSchema — the schema the API itself uses — so a
// message here is the message the API would give. Models come from /api/models. A person's first run
// (no run listed yet) is paced by default, so a newcomer sees thinking, commands and output arrive.
// The optional Caps group bounds what the run may spend (issue 31): it pauses before crossing one. On the practice
// range, the World choice: shared by default for a person (schema/worlds.ts).
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { RunCap } from '../../schema/budget.ts';
import type { ModelInfo } from '../../schema/protocol.ts';
import { BASELINE_MODEL, HUMAN_MODEL, READABLE_PACE_MS, runConfigSchema, targetSchema } from '../../schema/run.ts';
import { ApiFailure, createRun, fetchModels, listRuns } from '../lib/api.ts';
import { CAP_FIELDS, capsOfFields } from '../lib/budget.ts';
import type { World } from '../../schema/worlds.ts';
import { defaultWorld } from '../../schema/worlds.ts';
import { WorldField } from './world-field.tsx';

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
/** What a field means, under it; the proxy's meaning (ssh-proxy/agent/nodes/reflect.ts), in a person's words. */
const HELP: Partial<Record<Field, string>> = {
  target: 'Where the agent plays: the practice range on this machine, or the real OverTheWire server.',
  startLevel: 'Level N: logged in as banditN, looking for the next password.',
  maxRetries:
    'Failed attempts at a level before the run pauses for you: 3 means up to 3 attempts (models other than ' +
    'baseline then make one final best-effort attempt). Continue gives it as many again.',
  budget: 'Commands the agent may run in one attempt before that attempt counts as failed.',
};

/** Form strings → the config candidate; an empty number field stays empty so the schema names it. */
function candidate(values: Values, paced: boolean, capValues: CapValues, world: World): Record<string, unknown> {
  const number = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const caps = capsOfFields(capValues);
  return {
    ...(Object.keys(caps).length ? { caps } : {}),
    // Only the practice range has another world than the shared one.
    ...(values.target === 'practice' ? { world } : {}),
    ...(paced && values.model === BASELINE_MODEL ? { paceMs: READABLE_PACE_MS } : {}),
    target: values.target,
    startLevel: number(values.startLevel),
    endLevel: number(values.endLevel),
    model: values.model,
    maxRetries: number(values.maxRetries),
    budget: number(values.budget),
  };
}

type CapValues = Partial<Record<RunCap, string>>;

export function NewRunForm() {
  const [capValues, setCapValues] = useState<CapValues>({});
  const [capErrors, setCapErrors] = useState<CapValues>({});
  const [values, setValues] = useState<Values>(DEFAULTS);
  // A person practising plays in the shared world, as on the real server, unless they ask for their own.
  const [world, setWorld] = useState<World>(defaultWorld('practice', { batch: false }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [models, setModels] = useState<ModelInfo[]>([{ id: 'baseline', provider: 'baseline', available: true }]);
  // Checked for the first run (nothing listed yet); a person may change it. Unknown until the list answers.
  const [paced, setPaced] = useState<boolean | null>(null);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    listRuns(null, controller.signal)
      .then((list) => setPaced((p) => p ?? list.runs.length === 0))
      .catch(() => {
        if (!controller.signal.aborted) setPaced((p) => p ?? false);
      });
    return () => controller.abort();
  }, []);

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
    const parsed = runConfigSchema.safeParse(candidate(values, paced === true, capValues, world));
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      const capsFound: CapValues = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'caps') capsFound[issue.path[1] as RunCap] ??= issue.message;
        else found[issue.path[0] as Field] ??= issue.code === 'invalid_type' ? 'enter a whole number' : issue.message;
      }
      setErrors(found);
      setCapErrors(capsFound);
      return;
    }
    setErrors({});
    setCapErrors({});
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
    'aria-describedby':
      [errors[name] ? `${id}-${name}-error` : '', HELP[name] ? `${id}-${name}-help` : ''].join(' ').trim() || undefined,
  });
  const row = (name: Field, control: React.ReactNode) => (
    <div className="field" key={name}>
      <label htmlFor={`${id}-${name}`}>{LABELS[name]}</label>
      {control}
      {HELP[name] && (
        <p id={`${id}-${name}-help`} className="field-help">
          {HELP[name]}
        </p>
      )}
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
        {values.target === 'practice' && <WorldField id={id} value={world} onChange={setWorld} />}
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
        {values.model === HUMAN_MODEL && (
          <p className="field-help" data-human-help="true">
            You play: each level waits for you, <strong>Play level N</strong> opens its shell in the run page's
            terminal, and a password you find that logs in as the next level solves it, timed like a model's.
          </p>
        )}
        {row('maxRetries', <input type="number" inputMode="numeric" {...field('maxRetries')} />)}
        {row('budget', <input type="number" inputMode="numeric" {...field('budget')} />)}
        <fieldset className="caps-group" data-testid="caps-group">
          <legend>Caps (optional)</legend>
          <p className="field-help">
            The run pauses before a step that could cross one, and asks you to raise it or stop. Empty is no cap. A cost
            cap needs a priced model.
          </p>
          {CAP_FIELDS.map(({ cap, label }) => (
            <div className="field" key={cap}>
              <label htmlFor={`${id}-${cap}`}>{label}</label>
              <input
                id={`${id}-${cap}`}
                name={cap}
                type="number"
                inputMode="decimal"
                min="0"
                value={capValues[cap] ?? ''}
                onChange={(e) => setCapValues({ ...capValues, [cap]: e.target.value })}
                aria-invalid={capErrors[cap] ? true : undefined}
                aria-describedby={capErrors[cap] ? `${id}-${cap}-error` : undefined}
              />
              {capErrors[cap] && (
                <p id={`${id}-${cap}-error`} className="field-error">
                  {label} {capErrors[cap]}
                </p>
              )}
            </div>
          ))}
        </fieldset>
        {/* Shown once the run list has answered, so its default never changes under a person's hand. */}
        {values.model === BASELINE_MODEL && paced !== null && (
          <div className="field field-check">
            <label>
              <input
                type="checkbox"
                name="paced"
                checked={paced}
                onChange={(e) => setPaced(e.target.checked)}
                aria-describedby={`${id}-paced-help`}
              />{' '}
              Watch at a readable pace
            </label>
            <p id={`${id}-paced-help`} className="field-help">
              The baseline thinks for {READABLE_PACE_MS / 1000} s per step, so you can follow its thinking, commands and
              output as they arrive. Unticked, it plays at full speed (a dozen levels in a second or two).
            </p>
          </div>
        )}
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
