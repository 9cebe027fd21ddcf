// plan: ask the model for the next move of the attempt. A spent budget ends the attempt here;
// a model that cannot answer (after its backoff) pauses the run with reason llm_error, and a request
// that could cross a cap is not sent (budget-stop.ts).
import type { Command } from '../../engine/command.ts';
import type { BanditState } from '../bandit-state.ts';
import { budgetStopped } from '../budget-stop.ts';
import type { BanditContext } from './bandit-deps.ts';
import { planInput, reportCalls } from './bandit-deps.ts';
import { capSerialised } from '../../json-fit.ts';
import { STATE_TEXT_BYTES, stateText, THINKING_EVENT_BYTES } from '../state-text.ts';

export async function plan(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState> | Command<BanditState>> {
  if (s.spent >= ctx.config.budget) return { failure: 'budget_spent', decision: null };
  const live = (text: string) => ctx.live?.(s.level, 'plan', text);
  const answer = await ctx.model.plan(planInput(s, ctx), ctx.signal, live, ctx.budget);
  const serial = reportCalls(s, ctx, answer.calls);
  if (!answer.ok) {
    if (answer.failure.errorClass === 'aborted') return {};
    if (answer.failure.errorClass === 'budget')
      return budgetStopped(answer.failure.stop, 'plan', { serial, decision: null });
    const message = stateText(answer.failure.message, STATE_TEXT_BYTES.note);
    ctx.emit({ type: 'error', code: `llm_${answer.failure.errorClass}`, message, level: s.level });
    return { serial, decision: null, fault: { reason: 'llm_error', message, resumeAt: 'plan' }, lastError: message };
  }
  const choice = answer.value;
  // The log keeps the model's words as written (cut only when huge); the history keeps a short visible copy.
  if (choice.thinking)
    ctx.emit({ type: 'thinking', level: s.level, text: capSerialised(choice.thinking, THINKING_EVENT_BYTES) });
  if (choice.kind === 'give_up') return { serial, decision: null, failure: 'no_progress' };
  const thinking = stateText(choice.thinking, STATE_TEXT_BYTES.thinking);
  const callId = stateText(choice.callId, STATE_TEXT_BYTES.short);
  if (choice.kind === 'run_command') {
    return { serial, decision: { kind: 'run_command', callId, thinking, command: choice.command } };
  }
  return { serial, decision: { kind: 'submit_password', callId, thinking, password: choice.password, from: 'model' } };
}
