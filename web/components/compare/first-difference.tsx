// The first point where the two runs differ, in the sentence the CLI prints (schema/run-steps.ts), each
// run's step a link to that event on its run page (/run?id=…#seq-N scrolls there).
import type { RunComparison } from '../../../schema/run-compare.ts';
import type { Step } from '../../../schema/run-steps.ts';
import { differenceLead, NO_DIFFERENCE, stepWords } from '../../../schema/run-steps.ts';
import { Shown } from '../shown-text.tsx';

function Side({ runId, step }: { runId: string; step: Step | null }) {
  if (step === null) return <>{stepWords(null)}</>;
  return (
    <a href={`/run?id=${encodeURIComponent(runId)}#seq-${step.seq}`} data-seq={step.seq}>
      <Shown text={stepWords(step)} />
    </a>
  );
}

export function FirstDifference({ comparison }: { comparison: RunComparison }) {
  const d = comparison.firstDifference;
  return (
    <p className="panel compare-difference" data-difference={d ? 'found' : 'none'} role="status">
      {d === null ? (
        NO_DIFFERENCE
      ) : (
        <>
          {differenceLead(d)}: A <Side runId={comparison.a.id} step={d.a} />; B{' '}
          <Side runId={comparison.b.id} step={d.b} />.
        </>
      )}
    </p>
  );
}
