// What each of a person's actions does to a run that accepts it (run-actions.ts says which fit which
// state): answer a pause, raise a cap, pause, resume, message, take or hand back the terminal, stop.
import type { BreakKind, Resume } from '../../schema/protocol.ts';
import type { RunAction, RunSummary } from '../../schema/run.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { MessageInbox } from './message-inbox.ts';
import type { RunSchedule } from './run-schedule.ts';
import type { RunStore } from './run-store.ts';
import type { TerminalSeat } from './terminal-seat.ts';
import type { RunBudget } from './run-budget.ts';
import type { Refusal } from './raise-cap.ts';
import { raiseBatchCap, raisedCaps, raiseProblem } from './raise-cap.ts';

/** The parts of a run's object an action works through. */
export type ActDeps = {
  ctx: DurableObjectState;
  env: Env;
  budget: RunBudget;
  store: RunStore;
  life: RunLifecycle;
  inbox: MessageInbox;
  schedule: RunSchedule;
  seat: TerminalSeat;
  /** Cuts the proxy call in progress (stop, pause). */
  cutCall: () => void;
  /** Ends the proxy call in progress at its next node boundary. */
  breakCall: (kind: BreakKind) => void;
};

/**
 * Applies `action` by `by` to `run`; returns why it was refused (a string: HTTP 409; a Refusal says which),
 * or null when it was applied.
 */
export async function applyAction(
  d: ActDeps,
  run: RunSummary,
  action: RunAction,
  by: string,
): Promise<string | Refusal | null> {
  const now = Date.now();
  switch (action.action) {
    case 'continue':
    case 'password': {
      const resolved =
        action.action === 'continue'
          ? { action: 'continue' as const, ...(action.hint ? { hint: action.hint } : {}) }
          : { action: 'password' as const };
      const resume: Resume =
        action.action === 'continue'
          ? { action: 'continue', ...(action.hint ? { hint: action.hint } : {}) }
          : { action: 'password', value: action.value };
      const why = action.action === 'continue' ? 'continued by a person' : 'password supplied by a person';
      await answerPause(d, run, { ...resolved, by }, resume, why);
      return null;
    }
    case 'raise': {
      const problem = raiseProblem(action, d.store.pendingAction()?.breach, d.budget.spent(now));
      if (problem) return { code: 'invalid', message: problem };
      const pausedAt = JSON.stringify(d.store.pendingAction());
      const batchRefused = await raiseBatchCap(d.env, run, action.batchMaxCostUsd);
      if (batchRefused) return batchRefused;
      // The queue's answer was awaited: another answer (a stop, a second raise) may have been applied
      // meanwhile, and this one must not bring back a run that was stopped or answer its pause twice.
      const still = d.store.summary()?.status === 'paused_for_user_action';
      if (!still || JSON.stringify(d.store.pendingAction()) !== pausedAt)
        return {
          code: 'conflict',
          message: 'the pause was answered meanwhile: the batch cap was raised, nothing else changed',
        };
      const caps = raisedCaps(d.budget.caps(run.config), action);
      d.ctx.storage.transactionSync(() => {
        d.budget.setCaps(caps);
        d.life.record(
          {
            type: 'caps_raised',
            level: run.currentLevel,
            caps: action.caps ?? {},
            ...(action.batchMaxCostUsd !== undefined ? { batchMaxCostUsd: action.batchMaxCostUsd } : {}),
            by,
          },
          now,
        );
      });
      // The graph goes on where it paused, nothing reset: the next advance carries the new caps.
      await answerPause(d, run, { action: 'continue', by }, { action: 'continue' }, 'a cap was raised by a person');
      return null;
    }
    case 'pause': {
      d.cutCall();
      const paused = d.life.pauseFor(run, 'user_requested', 'paused by a person');
      d.store.update({ pendingAction: paused }, now);
      d.life.transition(run.status, 'paused_for_user_action', now, 'paused by a person');
      d.life.record({ type: 'user_action_required', ...paused }, now);
      await d.seat.afterCall();
      return null;
    }
    case 'takeover':
      // The socket that takes the terminal is the one that types, so only a socket can take it.
      return 'take the terminal over the run\'s WebSocket ({"type":"user_action","action":"takeover"}): the socket that takes it is the one that types';
    case 'handback': {
      return d.seat.handback(by);
    }
    case 'resume':
      d.seat.closeOpen('handback', 'the run was resumed while the terminal was open');
      // The log says who let the run go on, as a continue does: the two are one act (docs/outcomes.md).
      d.life.resolvePause({ action: 'continue', by }, now);
      await d.life.requeue(run.status, now, 'resumed by a person');
      return null;
    case 'message': {
      // Stored and kept unread together; the next proxy call carries it. The run goes on as it was.
      const text = action.text;
      d.ctx.storage.transactionSync(() => {
        const sent = d.life.record({ type: 'message_sent', level: run.currentLevel, text, by }, now);
        d.inbox.add(sent.seq, text);
      });
      // Read at the agent's next node, not at the next call (which may be levels away).
      d.breakCall('yield');
      return null;
    }
    case 'stop':
      d.seat.end('stopped');
      d.cutCall();
      if (run.status === 'paused_for_user_action') d.life.resolvePause({ action: 'stop', by }, now);
      d.life.finish(run.status, 'stopped', now, `stopped by ${by}`);
      d.schedule.nextAdvance(null);
      return null;
  }
}

/** Answers the pause and lets the run go on: it waits for a slot again, the graph given `resume` if it asked. */
async function answerPause(
  d: ActDeps,
  run: RunSummary,
  resolved: { action: 'continue' | 'password'; by: string; hint?: string },
  resume: Resume,
  why: string,
): Promise<void> {
  const now = Date.now();
  // Answering the pause ends a terminal still open: the agent and the person never type at once.
  d.seat.closeOpen('handback', 'the run was answered while the terminal was open');
  d.life.resolvePause(resolved, now);
  // The graph gets the answer only when it asked; a proxy outage or a person's pause just goes on.
  const asked = d.store.agentPlace().checkpoint?.interrupt !== undefined;
  d.store.setLoop({ resume: asked ? resume : null, proxyFailures: 0 });
  await d.life.requeue(run.status, now, why);
}
