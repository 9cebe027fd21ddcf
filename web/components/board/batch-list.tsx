'use client';
// The batches so far, newest first, each linking to its page.
import { Problem } from '../form-problem.tsx';
import { useEffect, useState } from 'react';
import type { BatchList as Batches } from '../../../schema/board.ts';
import { listBatches } from '../../lib/api.ts';

export function BatchList() {
  const [batches, setBatches] = useState<Batches['batches'] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    listBatches()
      .then((l) => setBatches(l.batches))
      .catch((err: unknown) => setProblem(err instanceof Error ? err.message : String(err)));
  }, []);
  return (
    <section className="panel" aria-labelledby="batch-list">
      <h2 id="batch-list">Batches</h2>
      <Problem text={problem} />
      {batches?.length === 0 && <p className="muted">No batch yet.</p>}
      <ul className="batch-list">
        {batches?.map((b) => (
          <li key={b.id}>
            <a href={`/batch?id=${b.id}`}>{new Date(b.createdAt).toLocaleString()}</a> — {b.models.join(', ')}{' '}
            <span className="muted">
              ({b.done} of {b.runs} runs ended)
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
