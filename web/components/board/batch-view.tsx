'use client';
// One batch: how far each of its runs has come (and its place in the queue), and the board of its
// results so far. Refreshed every two seconds until every run has ended.
import { useEffect, useState } from 'react';
import type { Batch } from '../../../schema/board.ts';
import { batchIdSchema } from '../../../schema/run.ts';
import { fetchBatch } from '../../lib/api.ts';
import { formatCost } from '../../lib/format.ts';
import { StatusBadge } from '../status-badge.tsx';
import { BoardView } from './board-view.tsx';
import { ForecastVsActual } from './forecast-vs-actual.tsx';
import { BatchBudget } from './batch-budget.tsx';

const REFRESH_MS = 2_000;

export function BatchView({ batchId }: { batchId: string }) {
  const valid = batchIdSchema.safeParse(batchId).success;
  const [batch, setBatch] = useState<Batch | null>(null);
  const [problem, setProblem] = useState<string | null>(valid ? null : 'This address has no valid batch id.');

  useEffect(() => {
    if (!valid) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const next = await fetchBatch(batchId, controller.signal);
        setBatch(next);
        setProblem(null);
        if (next.progress.done < next.progress.total) timer = setTimeout(() => void load(), REFRESH_MS);
      } catch (err) {
        if (controller.signal.aborted) return;
        setProblem(err instanceof Error ? err.message : String(err));
        timer = setTimeout(() => void load(), REFRESH_MS);
      }
    };
    void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [batchId, valid]);

  if (problem && !batch) return <p role="alert">{problem}</p>;
  if (!batch) return <p>Loading the batch…</p>;
  const { progress, config } = batch;
  return (
    <>
      <section className="panel" aria-labelledby="batch-runs">
        <h2 id="batch-runs">Runs</h2>
        <p className="muted">
          {batch.models.join(' · ')} — {config.target}, levels {config.startLevel}–{config.endLevel},{' '}
          {config.maxRetries} retries, budget {config.budget},{' '}
          {config.onPause === 'stop' ? 'hands-off (a pause stops the run)' : 'waits for a person at a pause'}
          {config.world === 'private' && <span data-world="private">, each run in a private world of its own</span>}
          {config.world === 'shared' && <span data-world="shared">, in the shared world</span>}
        </p>
        <p>
          <progress max={progress.total} value={progress.done} aria-label="Runs ended" />{' '}
          <span data-batch-done={progress.done}>
            {progress.done} of {progress.total} ended
          </span>
        </p>
        {problem && (
          <p role="status" className="muted">
            {problem}
          </p>
        )}
        <div className="table-wrap">
          <table className="batch-runs">
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Level</th>
                <th scope="col">Solved</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {batch.runs.map((run) => (
                <tr key={run.id} data-run={run.id}>
                  <td>
                    <a href={`/run?id=${run.id}`}>
                      <code>{run.id.slice(-8)}</code>
                    </a>
                  </td>
                  <td>{run.config.model}</td>
                  <td>
                    <StatusBadge status={run.status} />
                    {run.queuePosition !== null && <span className="muted"> #{run.queuePosition} in line</span>}
                  </td>
                  <td>{run.currentLevel}</td>
                  <td>{run.levelsSolved}</td>
                  <td>{formatCost(run.costUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <BatchBudget batch={batch} onRaised={setBatch} />
      <ForecastVsActual batch={batch} />
      <BoardView batch={batch.id} />
    </>
  );
}
