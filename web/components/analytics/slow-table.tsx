// Node executions over the threshold, slowest first: how much was the model and how much the rest.
import type { AnalyticsSlow } from '../../../schema/analytics.ts';

export function SlowTable({ slow, overMs }: { slow: AnalyticsSlow; overMs: number }) {
  if (slow.executions.length === 0)
    return <p className="muted">No node took longer than {overMs / 1000} s in this window.</p>;
  return (
    <div className="table-scroll">
      <table className="runs-table" data-testid="slow">
        <thead>
          <tr>
            <th>node</th>
            <th>model</th>
            <th>level</th>
            <th>duration</th>
            <th>model time</th>
            <th>overhead</th>
            <th>share</th>
            <th>run</th>
          </tr>
        </thead>
        <tbody>
          {slow.executions.map((e) => (
            <tr key={`${e.runId}:${e.seq}`}>
              <td>{e.node}</td>
              <td>{e.model}</td>
              <td>{e.level}</td>
              <td>{e.durationMs.toLocaleString('en')} ms</td>
              <td>{e.modelMs.toLocaleString('en')} ms</td>
              <td>{e.overheadMs.toLocaleString('en')} ms</td>
              <td>
                <span className="share" title={`${Math.round((e.modelMs / e.durationMs) * 100)}% model`}>
                  <span style={{ width: `${Math.min(100, (e.modelMs / e.durationMs) * 100)}%` }} />
                </span>
              </td>
              <td>
                <a href={e.link}>#{e.seq}</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
