'use client';
// The runs, newest first, with live status (refreshed every few seconds) and a status filter.
import { useEffect, useId, useState } from 'react';
import { runStatusSchema } from '../../schema/run.ts';
import type { RunListItem, RunStatus } from '../../schema/run.ts';
import { listRuns } from '../lib/api.ts';
import { formatDuration, formatTime, STATUS_LABELS } from '../lib/format.ts';
import { StatusBadge } from './status-badge.tsx';
import { Shown } from './shown-text.tsx';

const REFRESH_MS = 3_000;

export function RunList() {
  const [status, setStatus] = useState<RunStatus | null>(null);
  const [runs, setRuns] = useState<RunListItem[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const filterId = useId();

  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      listRuns(status, controller.signal)
        .then((list) => {
          setRuns(list.runs);
          setProblem(null);
          setNow(Date.now());
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setProblem(err instanceof Error ? err.message : String(err));
        });
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [status]);

  return (
    <section className="panel" aria-labelledby="runs-title">
      <div className="panel-head">
        <h2 id="runs-title">Runs</h2>
        <label htmlFor={filterId}>
          Status{' '}
          <select
            id={filterId}
            value={status ?? ''}
            onChange={(e) => setStatus(e.target.value ? runStatusSchema.parse(e.target.value) : null)}
          >
            <option value="">all</option>
            {runStatusSchema.options.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {problem && (
        <p role="alert" className="problem">
          Could not load the runs: {problem}
        </p>
      )}
      {runs === null && !problem && <p className="muted">Loading…</p>}
      {runs?.length === 0 && (
        <p className="muted">{status ? `No runs are ${STATUS_LABELS[status]}.` : 'No runs yet. Start one below.'}</p>
      )}
      {runs && runs.length > 0 && (
        <div className="table-scroll">
          <table className="runs-table">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Level</th>
                <th scope="col">Model</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => {
                const started = run.startedAt ? Date.parse(run.startedAt) : null;
                const ended = run.endedAt ? Date.parse(run.endedAt) : now;
                return (
                  <tr key={run.id} data-run={run.id}>
                    <td>
                      <a href={`/run?id=${run.id}`} aria-label={`Open run ${run.id}`}>
                        <code>{run.id.slice(0, 14)}…</code>
                      </a>
                    </td>
                    <td>
                      <StatusBadge status={run.status} />
                    </td>
                    <td>
                      {run.currentLevel} <span className="muted">({run.levelsSolved} solved)</span>
                    </td>
                    <td>
                      <Shown text={run.config.model} />
                    </td>
                    <td>{formatTime(run.startedAt)}</td>
                    <td>{started === null ? '—' : formatDuration(ended - started)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
