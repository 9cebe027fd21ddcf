'use client';
// The compare page's body: the form naming two runs, then (once both are named) GET /api/compare's
// answer as the two heads, the first difference and the table. A refusal is said in the server's words.
import { useEffect, useState } from 'react';
import type { RunComparison } from '../../../schema/run-compare.ts';
import { fetchComparison } from '../../lib/api.ts';
import { CompareForm } from './compare-form.tsx';
import { CompareHeads } from './compare-heads.tsx';
import { CompareTable } from './compare-table.tsx';
import { FirstDifference } from './first-difference.tsx';

type Loaded =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; comparison: RunComparison }
  | { state: 'failed'; problem: string };

/** Compares runs `a` and `b` (from the query); asks for them while either is missing. */
export function CompareView({ a, b }: { a: string; b: string }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' });
  useEffect(() => {
    if (!a || !b) return setLoaded({ state: 'idle' });
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    fetchComparison(a, b, controller.signal).then(
      (comparison) => setLoaded({ state: 'done', comparison }),
      (err: unknown) => {
        if (!controller.signal.aborted)
          setLoaded({ state: 'failed', problem: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => controller.abort();
  }, [a, b]);

  return (
    <>
      <CompareForm a={a} b={b} />
      {loaded.state === 'loading' && <p className="muted">Reading both runs…</p>}
      {loaded.state === 'failed' && (
        <p role="alert" className="problem">
          {loaded.problem}
        </p>
      )}
      {loaded.state === 'done' && (
        <>
          <CompareHeads comparison={loaded.comparison} />
          <FirstDifference comparison={loaded.comparison} />
          <CompareTable comparison={loaded.comparison} />
        </>
      )}
    </>
  );
}
