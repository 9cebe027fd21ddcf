'use client';
// A batch's forecast (made when it started) set against what its runs have spent, model by model.
import type { Batch } from '../../../schema/board.ts';
import { formatCost, formatDuration } from '../../lib/format.ts';
import { costRange, timeRange } from './forecast-preview.tsx';

export function ForecastVsActual({ batch }: { batch: Batch }) {
  const stored = batch.forecast ?? null;
  const actual = batch.actual ?? [];
  const forecastOf = (model: string) => stored?.forecast.models.find((m) => m.model === model) ?? null;
  return (
    <section className="panel" aria-labelledby="batch-forecast">
      <h2 id="batch-forecast">Forecast against actual</h2>
      {stored ? (
        <p className="muted">
          Forecast when the batch was made, from the runs before it (median – p90); actual so far, final once every run
          has ended.
        </p>
      ) : (
        <p className="muted" data-no-forecast>
          No forecast was stored with this batch (the run index could not be reached when it was made, or it predates
          forecasts); only what its runs spent is shown.
        </p>
      )}
      <div className="table-wrap">
        <table className="batch-runs forecast-table">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Runs ended</th>
              <th scope="col">Forecast cost</th>
              <th scope="col">Actual cost</th>
              <th scope="col">Forecast run time</th>
              <th scope="col">Actual run time</th>
            </tr>
          </thead>
          <tbody>
            {actual.map((a) => {
              const f = forecastOf(a.model);
              const none = !f || f.levelsWithoutHistory === f.levels.length;
              return (
                <tr key={a.model} data-actual-model={a.model}>
                  <td>{a.model}</td>
                  <td>
                    {a.done} of {a.runs}
                  </td>
                  <td className={none ? 'muted' : ''}>{f && !none ? costRange(f.total.costUsd) : 'no history'}</td>
                  <td data-actual-cost>{formatCost(a.costUsd)}</td>
                  <td className={none ? 'muted' : ''}>{f && !none ? timeRange(f.total.wallSeconds) : 'no history'}</td>
                  <td>{formatDuration(a.wallSeconds * 1000)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
