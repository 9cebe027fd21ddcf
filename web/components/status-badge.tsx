// A run's status as a coloured badge whose text says it too (colour is never the only signal).
import type { RunStatus } from '../../schema/run.ts';
import { STATUS_LABELS } from '../lib/format.ts';

export function StatusBadge({ status }: { status: RunStatus }) {
  return (
    <span className={`status status-${status}`} data-status={status}>
      {STATUS_LABELS[status]}
    </span>
  );
}
