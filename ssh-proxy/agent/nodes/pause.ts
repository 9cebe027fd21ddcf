// pause: ask a person, then act on the answer. First run: interrupt with the question.
// Resumed: continue (retries reset, a hint kept as a lesson), password, or stop. A takeover's
// continue goes on exactly where the person broke in: the pending node runs with its decision; so does
// the continue after a budget pause (sent once the cap was raised).
import type { PendingAction } from '../../../schema/protocol.ts';
import { Command } from '../../engine/command.ts';
import { interrupt } from '../../engine/interrupt.ts';
import type { Interrupt } from '../../engine/interrupt.ts';
import type { BanditState } from '../bandit-state.ts';
import { END } from '../../engine/types.ts';
import type { BanditContext } from './bandit-deps.ts';
import { STATE_TEXT_BYTES, stateText } from '../state-text.ts';
import { keepLessons } from './keep-lessons.ts';

export const PAUSE_ENDS = [
  'connect',
  'plan',
  'execute',
  'reflect',
  'validate',
  'advance',
  'final_attempt',
  END,
] as const;

export function pause(
  s: BanditState,
  ctx: BanditContext,
): Command<BanditState> | Interrupt<PendingAction, BanditState> {
  const answer = ctx.resume;
  if (answer === undefined) {
    const pending: PendingAction = {
      reason: s.fault?.reason ?? 'max_retries',
      level: s.level,
      retryCount: s.retryCount,
      maxRetries: ctx.config.maxRetries,
      lastError: s.fault?.message ?? s.lastError,
      // A state saved before lessons were kept once each may still hold repeats.
      lessons: keepLessons(s.lessons),
      ...(s.finalReport ? { finalAttempt: s.finalReport } : {}),
      ...(s.fault?.breach ? { breach: s.fault.breach } : {}),
    };
    // The stream turns the interrupt into user_action_required, as its last event (call-stream.ts).
    return interrupt(pending);
  }
  // The answer was validated once, by the route (proxyRequestSchema), and arrives typed.
  if (answer.action === 'stop') {
    return new Command({ update: { finished: 'stopped', fault: null }, goto: END });
  }
  if (answer.action === 'password') {
    const secrets = s.secrets.includes(answer.value) ? s.secrets : [...s.secrets, answer.value];
    if (s.fault?.reason === 'password_required') {
      return new Command({ update: { password: answer.value, fault: null, secrets }, goto: 'connect' });
    }
    // The person's password takes the place of the agent's pending command or candidate: if it is
    // refused, a continue lets the agent plan again rather than run a decision that is gone.
    const replaced = resumesInPlace(s) && ['execute', 'validate'].includes(s.fault?.resumeAt ?? '');
    const fault = replaced && s.fault ? { ...s.fault, resumeAt: 'plan' as const } : s.fault;
    const decision = {
      kind: 'submit_password' as const,
      callId: 'user',
      thinking: 'A person supplied a password.',
      password: answer.value,
      from: 'user' as const,
    };
    // A final attempt paused between its commands is over: the person answered instead.
    return new Command({ update: { decision, secrets, fault, finalRun: null }, goto: 'validate' });
  }
  const hint = answer.hint
    ? [{ text: stateText(answer.hint, STATE_TEXT_BYTES.note), source: 'user' as const, level: s.level }]
    : [];
  const goto = s.fault?.resumeAt ?? 'connect';
  if (resumesInPlace(s)) {
    // Nothing is reset: the node that was about to run runs now, once, with the decision it had.
    return new Command({ update: { lessons: keepLessons([...s.lessons, ...hint]), fault: null }, goto });
  }
  return new Command({
    update: {
      lessons: keepLessons([...s.lessons, ...hint]),
      retryCount: 0,
      lastLoop: null,
      fault: null,
      decision: null,
      failure: null,
      finalReport: null,
    },
    goto,
  });
}

/** A takeover or a budget pause: the run stopped between two steps, and continue takes the next one. */
function resumesInPlace(s: BanditState): boolean {
  return s.fault?.reason === 'takeover' || s.fault?.reason === 'budget_exceeded';
}
