// Which actions fit which run state. Pure, so the rules read in one place and test without a runtime.
import type { PendingAction } from '../../schema/protocol.ts';
import type { RunAction, RunStatus } from '../../schema/run.ts';
import { FINAL_STATUSES } from '../../schema/run.ts';
import { LIMIT_TEXT } from '../../schema/budget.ts';

/** Why `action` does not fit a run in `status`, or null when it does. */
export function refuseAction(
  action: RunAction['action'],
  status: RunStatus,
  pending: PendingAction | null,
): string | null {
  if (FINAL_STATUSES.includes(status)) return `the run is already ${status}; start a new run instead`;
  switch (action) {
    case 'stop':
      return null;
    case 'message':
      // Any live run takes a message: a paused or queued one reads it at its next model turn.
      return null;
    case 'continue':
    case 'password':
      if (status !== 'paused_for_user_action')
        return `the run is ${status}; "${action}" answers a run that is paused for you`;
      return pending?.reason === 'budget_exceeded' ? atBudget(pending) : null;
    case 'raise':
      if (status === 'paused_for_user_action' && pending?.reason === 'budget_exceeded') return null;
      return `the run is ${status}${pending ? ` (${pending.reason})` : ''}; "raise" answers a run paused at a budget cap (budget_exceeded)`;
    case 'takeover':
      // A queued run has no login yet; whether someone else holds the terminal is the object's to say.
      return status === 'queued' ? 'the run is queued; take the terminal once it has started' : null;
    case 'handback':
      return null;
    case 'pause':
      return status === 'running' ? null : `the run is ${status}; only a running run can be paused`;
    case 'resume':
      if (status !== 'paused_for_user_action') return `the run is ${status}; only a paused run can be resumed`;
      if (pending?.reason === 'budget_exceeded') return atBudget(pending);
      return pending?.reason === 'user_requested'
        ? null
        : `the run is waiting for an answer (${pending?.reason ?? 'unknown'}); use continue, password or stop`;
  }
}

/** Why only a raise or a stop answers a budget pause: going on as before would cross the cap. */
function atBudget(pending: PendingAction): string {
  const cap = pending.breach?.cap ?? 'maxCostUsd';
  const example =
    cap === 'batchMaxCostUsd' ? '{"action":"raise","batchMaxCostUsd":…}' : `{"action":"raise","caps":{"${cap}":…}}`;
  return `the run is paused at ${LIMIT_TEXT[cap]}: going on would cross it; raise the cap (${example}) or stop`;
}
