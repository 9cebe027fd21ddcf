// What `run --dry-run` prints for a forecast: each level's median and p90 with the runs behind them,
// "no history" where there is none, the per-run sums, times repeats, and the batch's total.
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { forecastRequestOf } from '../../cli/commands/forecast-print.ts';
import { forecastLines } from '../../cli/render/forecast-lines.ts';
import { forecastRequestSchema } from '../../schema/forecast-request.ts';
import { batchForecast, modelForecast } from '../../schema/forecast.ts';
import { runConfigSchema } from '../../schema/run.ts';

const plain = pc.createColors(false);
const request = forecastRequestSchema.parse({ models: ['a', 'b'], startLevel: 0, endLevel: 1, repeats: 2 });
const forecast = batchForecast(request, [
  modelForecast(
    'a',
    [
      { level: 0, runs: 4, costUsd: { median: 0.01, p90: 0.02 }, wallSeconds: { median: 30, p90: 75 } },
      { level: 1, runs: 0, costUsd: null, wallSeconds: null },
    ],
    2,
  ),
  modelForecast(
    'b',
    [
      { level: 0, runs: 0, costUsd: null, wallSeconds: null },
      { level: 1, runs: 0, costUsd: null, wallSeconds: null },
    ],
    2,
  ),
]);

describe('forecastLines', () => {
  it('prints each level, "no history", the sums per run, times repeats, and the total', () => {
    expect(forecastLines(forecast, plain)).toEqual([
      'Forecast from past runs of the same model, target and levels (median, p90 high estimate)',
      '  a',
      '    level  0  $0.0100 (p90 $0.0200), 30 s (p90 1 min 15 s)  from 4 runs',
      '    level  1  no history',
      '    per run   $0.0100 (p90 $0.0200), 30 s (p90 1 min 15 s) (without 1 level with no history)',
      '    × 2 runs  $0.0200 (p90 $0.0400), 1 min (p90 2 min 30 s)',
      '  b',
      '    level  0  no history',
      '    level  1  no history',
      '    no history for any of these levels',
      '  total  $0.0200 (p90 $0.0400), 1 min (p90 2 min 30 s) of run time (3 model-levels with no history left out)',
    ]);
  });

  it('asks for a single run as a batch of one model, once', () => {
    const config = runConfigSchema.parse({ model: 'm', target: 'practice', startLevel: 2, endLevel: 4 });
    expect(forecastRequestOf({ kind: 'run', config })).toEqual({
      models: ['m'],
      target: 'practice',
      startLevel: 2,
      endLevel: 4,
      repeats: 1,
    });
  });
});
