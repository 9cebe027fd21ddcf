'use client';
// /run?id=run_… — one run, live. A query parameter rather than a path segment, because the app is
// exported as static files and run ids are only known at run time.
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { RunView } from '../../components/run-view.tsx';

function RunFromQuery() {
  return <RunView runId={useSearchParams().get('id')} />;
}

export default function RunPage() {
  return (
    <Suspense
      fallback={
        <main>
          <p>Loading the run…</p>
        </main>
      }
    >
      <RunFromQuery />
    </Suspense>
  );
}
