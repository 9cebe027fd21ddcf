'use client';
// The two run ids to compare, prefilled from the address; a plain GET form to /compare, so the choice
// is in the address (a link to send) and the back button works. The recent runs are offered as choices.
import { useEffect, useState } from 'react';
import type { RunListItem } from '../../../schema/run.ts';
import { listRuns } from '../../lib/api.ts';

export function CompareForm({ a, b }: { a: string; b: string }) {
  const [runs, setRuns] = useState<RunListItem[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    listRuns(null, controller.signal).then(
      (list) => setRuns(list.runs),
      () => undefined, // The picker is a help; typing an id still works without it.
    );
    return () => controller.abort();
  }, []);
  return (
    <form className="panel compare-form" method="get" action="/compare" aria-label="Runs to compare">
      <label>
        Run A
        <input name="a" defaultValue={a} list="compare-runs" required pattern="run_[0-9a-z]+" spellCheck={false} />
      </label>
      <label>
        Run B
        <input name="b" defaultValue={b} list="compare-runs" required pattern="run_[0-9a-z]+" spellCheck={false} />
      </label>
      <button type="submit" className="primary">
        Compare
      </button>
      <datalist id="compare-runs">
        {runs.map((r) => (
          <option key={r.id} value={r.id}>
            {`${r.config.model} · ${r.status} · ${r.levelsSolved} solved · ${r.createdAt}`}
          </option>
        ))}
      </datalist>
    </form>
  );
}
