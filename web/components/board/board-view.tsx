'use client';
// The Board page: filters (batch, target, since), the model ranking, the models × levels matrix and
// the cost chart, refreshed every few seconds so a batch's results come in as its runs finish.
import { Problem } from '../form-problem.tsx';
import { useEffect, useId, useState } from 'react';
import type { Board, BatchList, BoardQuery } from '../../../schema/board.ts';
import { targetSchema } from '../../../schema/run.ts';
import { fetchBoard, listBatches } from '../../lib/api.ts';
import { LevelMatrix, ModelBoard } from './board-tables.tsx';
import { CostChart } from './cost-chart.tsx';

const REFRESH_MS = 3_000;

const SINCE: Record<string, number | null> = { all: null, day: 86_400_000, week: 7 * 86_400_000 };

export function BoardView({ batch: fixedBatch }: { batch?: string }) {
  const id = useId();
  const [batch, setBatch] = useState(fixedBatch ?? '');
  const [target, setTarget] = useState('');
  const [since, setSince] = useState('all');
  const [board, setBoard] = useState<Board | null>(null);
  const [batches, setBatches] = useState<BatchList['batches']>([]);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (fixedBatch) return;
    listBatches()
      .then((l) => setBatches(l.batches))
      .catch(() => undefined);
  }, [fixedBatch]);

  useEffect(() => {
    const window = SINCE[since];
    const query: BoardQuery = {
      ...(batch ? { batch } : {}),
      ...(target ? { target: target as BoardQuery['target'] } : {}),
      ...(window ? { from: new Date(Date.now() - window).toISOString() } : {}),
    };
    const controller = new AbortController();
    const load = () =>
      fetchBoard(query, controller.signal)
        .then((b) => {
          setBoard(b);
          setProblem(null);
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) setProblem(err instanceof Error ? err.message : String(err));
        });
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [batch, target, since]);

  return (
    <section className="panel board" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{fixedBatch ? 'Results so far' : 'Head to head'}</h2>
      {!fixedBatch && (
        <form className="filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Batch{' '}
            <select value={batch} onChange={(e) => setBatch(e.target.value)} name="batch">
              <option value="">all runs</option>
              {batches.map((b) => (
                <option key={b.id} value={b.id}>
                  {new Date(b.createdAt).toLocaleString()} — {b.models.join(', ')}
                </option>
              ))}
            </select>
          </label>
          <label>
            Target{' '}
            <select value={target} onChange={(e) => setTarget(e.target.value)} name="target">
              <option value="">any</option>
              {targetSchema.options.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label>
            Since{' '}
            <select value={since} onChange={(e) => setSince(e.target.value)} name="since">
              <option value="all">all time</option>
              <option value="day">last 24 hours</option>
              <option value="week">last 7 days</option>
            </select>
          </label>
        </form>
      )}
      <Problem text={problem} />
      {board && (
        <>
          <ModelBoard board={board} />
          <LevelMatrix board={board} />
          <CostChart models={board.models} />
        </>
      )}
    </section>
  );
}
