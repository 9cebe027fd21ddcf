// A forecast (schema/forecast.ts) as the lines `run --dry-run` prints: per model and level the median
// and p90 cost and time with the runs they rest on, "no history" where there is none, then the sums.
import type { Estimate, Forecast } from '../../schema/forecast.ts';
import type { Colors } from './colors.ts';
import { safe } from './event-line.ts';

/** The forecast's lines, without a trailing newline. */
export function forecastLines(f: Forecast, c: Colors): string[] {
  const lines = [c.bold('Forecast from past runs of the same model, target and levels (median, p90 high estimate)')];
  const times = f.repeats > 1 ? ` × ${f.repeats} runs` : '';
  for (const m of f.models) {
    lines.push(`  ${c.bold(safe(m.model))}`);
    for (const l of m.levels) {
      const figures =
        l.costUsd && l.wallSeconds
          ? `${formatCostEstimate(l.costUsd)}, ${formatTimeEstimate(l.wallSeconds)}  ${c.dim(`from ${l.runs} run${l.runs === 1 ? '' : 's'}`)}`
          : c.dim('no history');
      lines.push(`    level ${String(l.level).padStart(2)}  ${figures}`);
    }
    const missing = m.levelsWithoutHistory
      ? c.dim(` (without ${m.levelsWithoutHistory} level${m.levelsWithoutHistory === 1 ? '' : 's'} with no history)`)
      : '';
    if (m.levelsWithoutHistory === m.levels.length) lines.push(`    ${c.dim('no history for any of these levels')}`);
    else
      lines.push(
        `    per run   ${formatCostEstimate(m.perRun.costUsd)}, ${formatTimeEstimate(m.perRun.wallSeconds)}${missing}`,
        ...(times
          ? [`    ${times.trim()}  ${formatCostEstimate(m.total.costUsd)}, ${formatTimeEstimate(m.total.wallSeconds)}`]
          : []),
      );
  }
  if (f.models.length > 1 || f.repeats > 1)
    lines.push(
      `  ${c.bold('total')}  ${formatCostEstimate(f.total.costUsd)}, ${formatTimeEstimate(f.total.wallSeconds)} of run time${f.levelsWithoutHistory ? c.dim(` (${f.levelsWithoutHistory} model-levels with no history left out)`) : ''}`,
    );
  return lines;
}

/** "$0.12 (p90 $0.30)": an estimate as a person reads it. */
function formatCostEstimate(e: Estimate): string {
  const usd = (v: number) => `$${v.toFixed(v > 0 && v < 1 ? 4 : 2)}`;
  return `${usd(e.median)} (p90 ${usd(e.p90)})`;
}

/** "4 min 10 s (p90 6 min)": a time estimate as a person reads it. */
function formatTimeEstimate(e: Estimate): string {
  return `${formatSeconds(e.median)} (p90 ${formatSeconds(e.p90)})`;
}

/** Seconds as "42 s", "4 min 10 s" or "2 h 5 min". */
function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}
