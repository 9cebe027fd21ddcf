// The failures: the common ones grouped by class with their fix, then the newest, each linked to
// the run at the event.
import type { AnalyticsFailures } from '../../../schema/analytics.ts';
import { formatTime } from '../../lib/format.ts';
import { Shown } from '../shown-text.tsx';

export function FailuresTable({ failures }: { failures: AnalyticsFailures }) {
  if (failures.failures.length === 0) return <p className="muted">No failed model calls or nodes in this window.</p>;
  return (
    <>
      <ul className="failure-classes" data-testid="failure-classes">
        {failures.byClass.map((c) => (
          <li key={c.errorClass}>
            <strong>{c.errorClass}</strong> × {c.count} — <span className="muted">{c.fix}</span>
          </li>
        ))}
      </ul>
      <div className="table-scroll">
        <table className="runs-table" data-testid="failures">
          <thead>
            <tr>
              <th>when</th>
              <th>class</th>
              <th>stage</th>
              <th>model</th>
              <th>level</th>
              <th>message</th>
              <th>run</th>
            </tr>
          </thead>
          <tbody>
            {failures.failures.map((f) => (
              <tr key={`${f.runId}:${f.seq}:${f.kind}`}>
                <td>{formatTime(f.at)}</td>
                <td>{f.errorClass}</td>
                <td>{f.stage}</td>
                <td>{f.model}</td>
                <td>{f.level}</td>
                <td className="wrap" title={f.fix}>
                  {f.message === null ? '—' : <Shown text={f.message} />}
                </td>
                <td>
                  <a href={f.link}>#{f.seq}</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
