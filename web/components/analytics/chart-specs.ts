// uPlot options for the Analytics page's charts. Stacks and nested bars are drawn by painting the
// largest series first: uPlot draws series in order, so each later, smaller bar sits in front.
import type uPlot from 'uplot';
import type { AnalyticsModels, AnalyticsSeries } from '../../../schema/analytics.ts';
import type { RunStatus } from '../../../schema/run.ts';
import { STATUS_LABELS } from '../../lib/format.ts';
import type { Bars, ChartSpec } from './uplot-chart.tsx';

const STATUS_COLOURS: Record<RunStatus, string> = {
  completed: '#3fb950',
  paused_for_user_action: '#d29922',
  failed: '#f85149',
  stopped: '#8b949e',
  running: '#58a6ff',
  queued: '#6e7681',
};
const STATUS_ORDER: RunStatus[] = ['completed', 'paused_for_user_action', 'failed', 'stopped', 'running', 'queued'];
const AXIS = { stroke: '#9da7b3', grid: { stroke: '#30363d', width: 1 }, ticks: { stroke: '#30363d', width: 1 } };

/** The span a chart asked for: its filter's `from` (and `to`, else now), both ISO times; unset for all time. */
export type ChartWindow = { from?: string | undefined; to?: string | undefined };

/**
 * The x range, in seconds, of a time chart of `bucket`s: the window asked for where it was given, else the data's
 * own range with half a bucket either side so the outer bars show whole. Always a real span: uPlot, given a
 * range function and a single point, drew years around it (January 2027 to July 2029 for runs of one hour).
 */
export function timeRange(xs: readonly number[], bucket: 'hour' | 'day', window: ChartWindow): [number, number] {
  const half = bucket === 'hour' ? 1800 : 43_200;
  const lo = window.from ? Date.parse(window.from) / 1000 : Math.min(...xs) - half;
  const hi = window.to ? Date.parse(window.to) / 1000 : window.from ? Date.now() / 1000 : Math.max(...xs) + half;
  // A window that ends before a bar's end still shows the bar whole.
  return [Math.min(lo, Math.min(...xs) - half), Math.max(hi, Math.max(...xs) + half)];
}

/** Runs per hour or day, stacked by status, over the window asked for (or the data's own range). */
export function runsOverTime(series: AnalyticsSeries, bars: Bars, window: ChartWindow = {}): ChartSpec {
  const xs = series.points.map((p) => Date.parse(p.t) / 1000);
  const statuses = STATUS_ORDER.filter((s) => series.points.some((p) => p.byStatus[s]));
  // cumulative[k] = runs of statuses[k..]; painted from the tallest down, so each status shows its own band.
  const cumulative = statuses.map((_, k) =>
    series.points.map((p) => statuses.slice(k).reduce((sum, s) => sum + (p.byStatus[s] ?? 0), 0)),
  );
  const [min, max] = timeRange(xs, series.bucket, window);
  return {
    options: {
      // A fixed range, not a function: uPlot widens a zero-width data range before it asks a function.
      scales: { x: { time: true, range: [min, max] } },
      axes: [AXIS, { ...AXIS, label: 'runs' }],
      series: [
        {},
        ...statuses.map((s) => ({
          label: STATUS_LABELS[s],
          fill: STATUS_COLOURS[s],
          stroke: STATUS_COLOURS[s],
          paths: bars({ size: [0.7, 48] }),
          // The legend shows this status's own count, not the stack's height.
          value: (_u: uPlot, v: number | null, _si: number, i: number | null) =>
            v === null || i === null ? '—' : String(series.points[i]!.byStatus[s] ?? 0),
          points: { show: false },
        })),
      ],
    },
    data: [xs, ...cumulative],
  };
}

/** Bars per model: x is the model's index, labelled with its name. */
function perModel(
  models: AnalyticsModels['models'],
  label: string,
  series: { label: string; colour: string; values: (number | null)[] }[],
  bars: Bars,
): ChartSpec {
  const names = models.map((m) => m.model);
  return {
    options: {
      scales: { x: { time: false, range: [-0.5, Math.max(0.5, names.length - 0.5)] } },
      axes: [
        { ...AXIS, splits: () => names.map((_, i) => i), values: (_u, splits) => splits.map((i) => names[i] ?? '') },
        { ...AXIS, label, size: 60 },
      ],
      series: [
        { label: 'model', value: (_u, v) => (v === null ? '—' : (names[v] ?? '')) },
        ...series.map((s) => ({
          label: s.label,
          fill: s.colour,
          stroke: s.colour,
          paths: bars({ size: [0.6, 80] }),
          points: { show: false },
        })),
      ],
    },
    data: [names.map((_, i) => i), ...series.map((s) => s.values)],
  };
}

export const costByModel = (models: AnalyticsModels['models'], bars: Bars) =>
  perModel(models, 'USD', [{ label: 'cost (USD)', colour: '#58a6ff', values: models.map((m) => m.costUsd) }], bars);

/** Prompt + completion tokens, completion in front. */
export const tokensByModel = (models: AnalyticsModels['models'], bars: Bars) =>
  perModel(
    models,
    'tokens',
    [
      {
        label: 'prompt + completion',
        colour: '#8957e5',
        values: models.map((m) => m.tokens.prompt + m.tokens.completion),
      },
      { label: 'completion', colour: '#d2a8ff', values: models.map((m) => m.tokens.completion) },
    ],
    bars,
  );

/** p99 behind p95 behind p50: each bar shows how far the slower calls reach. */
export const latencyByModel = (models: AnalyticsModels['models'], bars: Bars) =>
  perModel(
    models,
    'ms',
    [
      { label: 'p99', colour: '#f85149', values: models.map((m) => m.modelCalls.latencyMs.p99) },
      { label: 'p95', colour: '#d29922', values: models.map((m) => m.modelCalls.latencyMs.p95) },
      { label: 'p50', colour: '#3fb950', values: models.map((m) => m.modelCalls.latencyMs.p50) },
    ],
    bars,
  );
