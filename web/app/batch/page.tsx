'use client';
// /batch — start a batch and list them; /batch?id=batch_… — one batch's runs and results, live.
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { BatchList } from '../../components/board/batch-list.tsx';
import { BatchView } from '../../components/board/batch-view.tsx';
import { NewBatchForm } from '../../components/board/new-batch-form.tsx';
import { OperatorOnly } from '../../components/operator-only.tsx';

function BatchFromQuery() {
  const id = useSearchParams().get('id');
  return (
    <main className="batch-page">
      <header>
        <p>
          <a href="/">← runs</a> · <a href="/board">board</a>
          {id && (
            <>
              {' '}
              · <a href="/batch">all batches</a>
            </>
          )}
        </p>
        <h1>{id ? 'Batch' : 'Batches'}</h1>
        {id ? (
          <p className="lede">
            <code>{id}</code>
          </p>
        ) : (
          <p className="lede">Several models on the same levels, side by side, within each provider's limits.</p>
        )}
      </header>
      {id ? (
        <BatchView batchId={id} />
      ) : (
        <>
          <OperatorOnly what="starting a batch">
            <NewBatchForm />
          </OperatorOnly>
          <BatchList />
        </>
      )}
    </main>
  );
}

export default function BatchPage() {
  return (
    <Suspense
      fallback={
        <main>
          <p>Loading…</p>
        </main>
      }
    >
      <BatchFromQuery />
    </Suspense>
  );
}
