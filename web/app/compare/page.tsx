'use client';
// /compare?a=run_…&b=run_… — two runs side by side (docs/compare.md). Query parameters, as /run has,
// because the app is exported as static files and run ids are only known at run time.
import { useSearchParams } from 'next/navigation';
import { Suspense } from 'react';
import { CompareView } from '../../components/compare/compare-view.tsx';

function CompareFromQuery() {
  const query = useSearchParams();
  return <CompareView a={query.get('a') ?? ''} b={query.get('b') ?? ''} />;
}

export default function ComparePage() {
  return (
    <main className="compare-page">
      <header>
        <p>
          <a href="/">← runs</a> · <a href="/board">board</a>
        </p>
        <h1>Compare two runs</h1>
        <p className="lede">
          Level by level, side by side: how each level ended, what it took, and the first point where the runs differ.
        </p>
      </header>
      <Suspense fallback={<p>Loading…</p>}>
        <CompareFromQuery />
      </Suspense>
    </main>
  );
}
