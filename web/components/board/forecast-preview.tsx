'use client';
// The batch form's forecast: what the chosen models, levels and repeats are likely to cost and take,
// from past runs (POST /api/forecast), asked again a moment after the choice stops changing.
import { useEffect, useState } from 'react';
import type { ForecastRequest } from '../../../schema/forecast-request.ts';
import { forecastRequestSchema } from '../../../schema/forecast-request.ts';
import type { Estimate, Forecast, ModelForecast } from '../../../schema/forecast.ts';
import { fetchForecast } from '../../lib/api.ts';
import { formatCost, formatDuration } from '../../lib/format.ts';

const DEBOUNCE_MS = 400;

/** "$0.03 – $0.05": the median, then the p90. */
export const costRange = (e: Estimate) => `${formatCost(e.median)} – ${formatCost(e.p90)}`;
/** "30s – 50s": the median, then the p90. */
export const timeRange = (e: Estimate) => `${formatDuration(e.median * 1000)} – ${formatDuration(e.p90 * 1000)}`;

/** Past runs per level: "L0 5 · L1 3 · L2 no history". */
function levelRuns(m: ModelForecast): string {
  return m.levels
    .map((l) => `L${l.level} ${l.runs ? `${l.runs} run${l.runs === 1 ? '' : 's'}` : 'no history'}`)
    .join(' · ');
}

export function ForecastPreview({ request }: { request: Partial<ForecastRequest> }) {
  const [forecast, setForecast] = useState<Forecast | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const key = JSON.stringify(request);

  useEffect(() => {
    const parsed = forecastRequestSchema.safeParse(JSON.parse(key));
    if (!parsed.success) {
      setForecast(null);
      setProblem(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchForecast(parsed.data, controller.signal)
        .then((f) => {
          setForecast(f);
          setProblem(null);
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setProblem(err instanceof Error ? err.message : String(err));
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  return (
    <section className="forecast" aria-label="Forecast" aria-live="polite">
      <h3>Forecast</h3>
      {problem ? (
        <p className="muted">No forecast: {problem}</p>
      ) : !forecast ? (
        <p className="muted">Choose models and levels to see what the batch is likely to cost.</p>
      ) : (
        <>
          {forecast.models.every((m) => m.levelsWithoutHistory === m.levels.length) ? (
            <p data-forecast-total>
              No history yet for these models at these levels on {forecast.target}: nothing to forecast from.
            </p>
          ) : (
            <p data-forecast-total>
              From past runs of the same models and levels: {costRange(forecast.total.costUsd)} and{' '}
              {timeRange(forecast.total.wallSeconds)} of run time (median – p90)
              {forecast.levelsWithoutHistory > 0 && (
                <span className="muted">
                  , not counting {forecast.levelsWithoutHistory} model-levels with no history
                </span>
              )}
              .
            </p>
          )}
          <div className="table-wrap">
            <table className="batch-runs forecast-table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col">Cost per run</th>
                  <th scope="col">Time per run</th>
                  <th scope="col">Cost × {forecast.repeats} runs</th>
                  <th scope="col">Past runs per level</th>
                </tr>
              </thead>
              <tbody>
                {forecast.models.map((m) => (
                  <tr key={m.model} data-forecast-model={m.model}>
                    <td>{m.model}</td>
                    {m.levelsWithoutHistory === m.levels.length ? (
                      <td colSpan={3} className="muted">
                        no history
                      </td>
                    ) : (
                      <>
                        <td>{costRange(m.perRun.costUsd)}</td>
                        <td>{timeRange(m.perRun.wallSeconds)}</td>
                        <td>{costRange(m.total.costUsd)}</td>
                      </>
                    )}
                    <td className="muted">{levelRuns(m)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
