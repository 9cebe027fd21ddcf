'use client';
// The Analytics page: filters (time window, model, target), the headline figures, runs over time,
// cost, tokens and latency by model, the models × levels heat map, failures with their fixes and
// slow executions. Everything comes from /api/analytics/*; the charts are uPlot (docs/web.md).
import { useEffect, useId, useState } from 'react';
import { targetSchema } from '../../../schema/levels.ts';
import { fetchAnalytics } from '../../lib/api.ts';
import type { AnalyticsData, AnalyticsFilter } from '../../lib/api.ts';
import { formatCost, STATUS_LABELS } from '../../lib/format.ts';
import { costByModel, latencyByModel, runsOverTime, tokensByModel } from './chart-specs.ts';
import { FailuresTable } from './failures-table.tsx';
import { LevelHeatmap } from './level-heatmap.tsx';
import { ModelTable } from './model-table.tsx';
import { SlowTable } from './slow-table.tsx';
import { SummaryTiles } from './summary-tiles.tsx';
import { UplotChart } from './uplot-chart.tsx';

const WINDOWS = { all: null, '24h': 86_400_000, '7d': 7 * 86_400_000, '30d': 30 * 86_400_000 } as const;
type WindowName = keyof typeof WINDOWS;
const SLOW_MS = 5_000;

/** A labelled select; options are [value, text]. */
function FilterSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: [string, string][];
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function AnalyticsView() {
  const [window, setWindow] = useState<WindowName>('all');
  const [model, setModel] = useState('');
  const [target, setTarget] = useState('');
  const [data, setData] = useState<AnalyticsData | null>(null);
  // The window the data shown was asked for: the time chart spans it (undefined: all time, the data's range).
  const [shownFrom, setShownFrom] = useState<string | undefined>(undefined);
  const [knownModels, setKnownModels] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const span = WINDOWS[window];
    // Whole hours, so the API answers from its hourly roll-up.
    const from =
      span === null ? undefined : new Date(Math.floor((Date.now() - span) / 3_600_000) * 3_600_000).toISOString();
    const filter: AnalyticsFilter = { from, model, target };
    fetchAnalytics(filter, span !== null && span <= WINDOWS['7d'] ? 'hour' : 'day', controller.signal)
      .then((answer) => {
        setData(answer);
        setShownFrom(from);
        setProblem(null);
        setKnownModels((known) => [...new Set([...known, ...answer.models.models.map((m) => m.model)])].sort());
      })
      .catch((err: unknown) => {
        if (!controller.signal.aborted) setProblem(err instanceof Error ? err.message : String(err));
      });
    return () => controller.abort();
  }, [window, model, target]);

  const models = data?.models.models ?? [];
  return (
    <>
      <section className="panel filters" aria-label="Filters">
        <FilterSelect
          label="Time"
          value={window}
          onChange={(v) => setWindow(v as WindowName)}
          options={[
            ['all', 'all time'],
            ['24h', 'last 24 hours'],
            ['7d', 'last 7 days'],
            ['30d', 'last 30 days'],
          ]}
        />
        <FilterSelect
          label="Model"
          value={model}
          onChange={setModel}
          options={[['', 'every model'], ...knownModels.map((m): [string, string] => [m, m])]}
        />
        <FilterSelect
          label="Target"
          value={target}
          onChange={setTarget}
          options={[['', 'every target'], ...targetSchema.options.map((t): [string, string] => [t, t])]}
        />
      </section>
      {problem ? (
        <p className="problem" role="alert">
          {problem}
        </p>
      ) : null}
      {!data ? (
        <p className="muted">Loading the figures…</p>
      ) : (
        <>
          <section className="panel" aria-labelledby="summary-title">
            <h2 id="summary-title">Summary</h2>
            <SummaryTiles summary={data.summary} />
          </section>
          <section className="panel" aria-labelledby="over-time-title">
            <h2 id="over-time-title">Runs over time, by status</h2>
            {data.series.points.length === 0 ? (
              <p className="muted">No runs in this window.</p>
            ) : (
              <>
                <UplotChart
                  label="Runs per period, stacked by status"
                  source={data.series}
                  make={(bars) => runsOverTime(data.series, bars, { from: shownFrom })}
                />
                <details>
                  <summary>The figures</summary>
                  <div className="table-scroll">
                    <table className="runs-table" data-testid="series">
                      <thead>
                        <tr>
                          <th>{data.series.bucket === 'hour' ? 'hour' : 'day'} (UTC)</th>
                          <th>runs</th>
                          <th>by status</th>
                          <th>model calls</th>
                          <th>failed</th>
                          <th>tokens</th>
                          <th>cost</th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.series.points.map((p) => (
                          <tr key={p.t}>
                            <td>
                              {data.series.bucket === 'hour'
                                ? `${p.t.slice(0, 13).replace('T', ' ')}:00`
                                : p.t.slice(0, 10)}
                            </td>
                            <td>{p.runs}</td>
                            <td>
                              {Object.entries(p.byStatus)
                                .map(([s, n]) => `${STATUS_LABELS[s as keyof typeof STATUS_LABELS]} ${n}`)
                                .join(', ')}
                            </td>
                            <td>{p.modelCalls}</td>
                            <td>{p.errors}</td>
                            <td>{p.tokens.toLocaleString('en')}</td>
                            <td>{formatCost(p.costUsd)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              </>
            )}
          </section>
          <section className="panel" aria-labelledby="models-title">
            <h2 id="models-title">By model</h2>
            {models.length === 0 ? (
              <p className="muted">No model has played in this window.</p>
            ) : (
              <>
                <div className="chart-grid">
                  <figure>
                    <figcaption>Cost</figcaption>
                    <UplotChart label="Cost by model" source={models} make={(bars) => costByModel(models, bars)} />
                  </figure>
                  <figure>
                    <figcaption>Tokens</figcaption>
                    <UplotChart label="Tokens by model" source={models} make={(bars) => tokensByModel(models, bars)} />
                  </figure>
                  <figure>
                    <figcaption>Model latency p50 / p95 / p99</figcaption>
                    <UplotChart
                      label="Latency percentiles by model"
                      source={models}
                      make={(bars) => latencyByModel(models, bars)}
                    />
                  </figure>
                </div>
                <ModelTable models={models} />
              </>
            )}
          </section>
          <section className="panel" aria-labelledby="levels-title">
            <h2 id="levels-title">Solve rate, models × levels</h2>
            <p className="muted small">
              Solved / runs per level; +Nh: solved after a person&apos;s hint or password. Hover a cell for attempts,
              retries, pauses and medians.
            </p>
            <LevelHeatmap cells={data.levels.cells} />
          </section>
          <section className="panel" aria-labelledby="failures-title">
            <h2 id="failures-title">Failures</h2>
            <FailuresTable failures={data.failures} />
          </section>
          <section className="panel" aria-labelledby="slow-title">
            <h2 id="slow-title">Slow executions (over {SLOW_MS / 1000} s)</h2>
            <p className="muted small">
              Overhead = duration − the model&apos;s time: the shell, the SSH round trips and the platform.
            </p>
            <SlowTable slow={data.slow} overMs={SLOW_MS} />
          </section>
        </>
      )}
    </>
  );
}
