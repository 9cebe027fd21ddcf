// How a node meets a budget stop (spend-guard.ts): a breach pauses the run at that node with reason
// budget_exceeded, nothing reset, so a continue after a raise runs the node once; a yield for more of the
// batch's dollars comes back to the same node, and the call ends at that boundary (call-stream.ts).
import type { BudgetStop } from '../models/agent-model.ts';
import { Command } from '../engine/command.ts';
import type { BanditState, ResumeAt } from './bandit-state.ts';
import type { BreachStop } from './spend-guard.ts';

/** The fault of a budget pause at `resumeAt`, naming the cap in its breach. */
export function budgetFault(stop: BreachStop, resumeAt: ResumeAt): Pick<BanditState, 'fault' | 'lastError'> {
  return {
    fault: { reason: 'budget_exceeded', message: stop.message, resumeAt, breach: stop.breach },
    lastError: stop.message,
  };
}

/** A model call's budget stop at `node`, with what the node must keep (`update`: the calls it reported). */
export function budgetStopped(
  stop: BudgetStop,
  node: ResumeAt,
  update: Partial<BanditState>,
): Partial<BanditState> | Command<BanditState> {
  if (stop.kind === 'yield') return new Command<BanditState>({ update, goto: node });
  return { ...update, ...budgetFault(stop, node) };
}
