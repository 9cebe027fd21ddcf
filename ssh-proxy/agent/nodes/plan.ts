// plan: ask the model for the next step of the attempt. A spent budget ends the attempt here;
// a model that cannot answer (after its backoff) pauses the run with reason llm_error.
import type { BanditState } from '../bandit-state.ts';
import type { BanditContext } from './bandit-deps.ts';
import { planInput, reportCalls } from './bandit-deps.ts';

export async function plan(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState>> {
  if (s.spent >= ctx.config.budget) return { failure: 'budget_spent', decision: null };
  const answer = await ctx.model.plan(planInput(s, ctx), ctx.signal, (text) => ctx.live?.(s.level, 'plan', text));
  const serial = reportCalls(s, ctx, answer.calls);
  if (!answer.ok) {
    if (answer.failure.errorClass === 'aborted') return {};
    ctx.emit({ type: 'error', code: `llm_${answer.failure.errorClass}`, message: answer.failure.message, level: s.level });
    return { serial, decision: null, fault: { reason: 'llm_error', message: answer.failure.message, resumeAt: 'plan' }, lastError: answer.failure.message };
  }
  const choice = answer.value;
  if (choice.thinking) ctx.emit({ type: 'thinking', level: s.level, text: choice.thinking });
  if (choice.kind === 'give_up') return { serial, decision: null, failure: 'no_progress' };
  if (choice.kind === 'run_command') {
    return { serial, decision: { kind: 'run_command', callId: choice.callId, thinking: choice.thinking, command: choice.command } };
  }
  return { serial, decision: { kind: 'submit_password', callId: choice.callId, thinking: choice.thinking, password: choice.password, from: 'model' } };
}
