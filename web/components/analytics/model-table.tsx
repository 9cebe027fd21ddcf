// The per-model report: what each model solved (alone and with help), at what cost and speed.
import type { AnalyticsModels } from '../../../schema/analytics.ts';
import { formatCost } from '../../lib/format.ts';

const rate = (r: number | null) => (r === null ? '—' : `${Math.round(r * 100)}%`);
const ms = (v: number | null) => (v === null ? '—' : v.toLocaleString('en'));

export function ModelTable({ models }: { models: AnalyticsModels['models'] }) {
  return (
    <div className="table-scroll">
      <table className="runs-table" data-testid="models">
        <thead>
          <tr>
            <th>model</th>
            <th>runs</th>
            <th>levels solved</th>
            <th>alone</th>
            <th>with help</th>
            <th>solve rate</th>
            <th>tokens</th>
            <th>cost</th>
            <th>calls</th>
            <th>failed</th>
            <th>p50 ms</th>
            <th>p95 ms</th>
            <th>p99 ms</th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.model} data-model={m.model}>
              <td>{m.model}</td>
              <td>{m.runs}</td>
              <td>
                {m.levelsSolved} / {m.levelsAttempted}
              </td>
              <td>{m.solvedAlone}</td>
              <td>{m.solvedWithHelp}</td>
              <td>{rate(m.solveRate)}</td>
              <td>{(m.tokens.prompt + m.tokens.completion).toLocaleString('en')}</td>
              <td>{formatCost(m.costUsd)}</td>
              <td>{m.modelCalls.count}</td>
              <td>{rate(m.modelCalls.errorRate)}</td>
              <td>{ms(m.modelCalls.latencyMs.p50)}</td>
              <td>{ms(m.modelCalls.latencyMs.p95)}</td>
              <td>{ms(m.modelCalls.latencyMs.p99)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
