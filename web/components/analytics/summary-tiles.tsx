// The headline figures: runs, solve rate, help, tokens, cost, errors and model latency.
import type { AnalyticsSummary } from '../../../schema/analytics.ts';
import { formatCost } from '../../lib/format.ts';

const percent = (rate: number | null) =>
  rate === null ? '—' : `${(rate * 100).toFixed((rate * 100) % 1 === 0 ? 0 : 1)}%`;
const ms = (v: number | null) => (v === null ? '—' : `${v.toLocaleString('en')} ms`);

export function SummaryTiles({ summary }: { summary: AnalyticsSummary }) {
  const tiles: [string, string, string?][] = [
    ['runs', summary.runs.total.toLocaleString('en')],
    [
      'levels solved',
      `${summary.levels.solved} / ${summary.levels.attempted}`,
      `${percent(summary.levels.solveRate)} solve rate`,
    ],
    ['solved with help', String(summary.levels.solvedWithHelp), 'after a hint or a password'],
    [
      'tokens',
      (summary.tokens.prompt + summary.tokens.completion).toLocaleString('en'),
      `${summary.tokens.completion.toLocaleString('en')} completion`,
    ],
    ['cost', formatCost(summary.costUsd)],
    ['model calls', summary.modelCalls.count.toLocaleString('en'), `${percent(summary.modelCalls.errorRate)} failed`],
    ['latency p50', ms(summary.modelCalls.latencyMs.p50)],
    ['latency p95 / p99', `${ms(summary.modelCalls.latencyMs.p95)} / ${ms(summary.modelCalls.latencyMs.p99)}`],
  ];
  return (
    <dl className="tiles" data-testid="summary">
      {tiles.map(([name, value, note]) => (
        <div key={name} className="tile" data-tile={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
          {note ? <dd className="muted small">{note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
