'use client';
// /run?id=run_… — one run, live. A query parameter rather than a path segment, because the app is
// exported as static files and run ids are only known at run time.
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { runIdSchema } from '../../../schema/run.ts';
import { RunView } from '../../components/run-view.tsx';
import { openRunSocketEarly } from '../../lib/use-run-socket.ts';

// Loaded on this page (not prefetched from another), the run's socket opens now, while React starts.
if (typeof window !== 'undefined' && window.location.pathname.replace(/\/$/, '').endsWith('/run')) {
  const id = new URLSearchParams(window.location.search).get('id');
  if (id && runIdSchema.safeParse(id).success) openRunSocketEarly(id);
}

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
