// validate: a candidate is proven only by logging in as the next level. Its shape is checked
// first, so a malformed guess costs no login. A person's wrong password pauses again.
import type { BanditState } from '../bandit-state.ts';
import { passwordShapeProblem } from '../../targets/target.ts';
import type { BanditContext } from './bandit-deps.ts';

/** Refused candidates kept per level (continue after a pause adds more); the oldest go first. */
const MAX_TRIED = 100;

export async function validate(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState>> {
  const decision = s.decision;
  if (decision?.kind !== 'submit_password') throw new Error('validate needs a submit_password decision');
  const next = s.level + 1;
  const user = ctx.target.username(next);
  const candidate = decision.password.trim();

  const shape = passwordShapeProblem(candidate, next);
  const repeated = s.history.some((t) => t.kind === 'submission' && t.password === candidate);
  let verdict = shape ?? (repeated || s.tried.includes(candidate) ? `${candidate} was already refused` : null);
  if (verdict === null) {
    const login = await ctx.shell.login(next, candidate, ctx.signal);
    if (login.ok) {
      ctx.emit({ type: 'password_found', level: s.level, password: candidate });
      return {
        found: candidate,
        solvedBy: decision.from === 'user' ? 'person' : 'agent',
        decision: null,
        fault: null,
        lastError: null,
      };
    }
    if (login.failure.kind === 'aborted') return {};
    if (login.failure.kind !== 'auth') {
      const message = `${login.failure.message}; continue tries the password again`;
      ctx.emit({ type: 'error', code: `ssh_${login.failure.kind}`, message, level: s.level });
      return { fault: { reason: 'ssh_error', message, resumeAt: 'plan' }, lastError: message };
    }
    verdict = `${user} refused ${candidate}`;
  }

  if (decision.from === 'user') {
    // Said without the password itself: it must not reach an event, lastError or the question.
    const why = shape
      ? 'it is not shaped like a Bandit password'
      : repeated || s.tried.includes(candidate)
        ? 'it was already refused at this level'
        : `login as ${user} failed`;
    const message = `the password you gave was refused (${why})`;
    ctx.emit({ type: 'error', code: 'wrong_password', message, level: s.level });
    const fault = s.fault ?? { reason: 'max_retries' as const, message: null, resumeAt: 'connect' as const };
    return { decision: null, fault: { ...fault, message }, lastError: message };
  }
  const spent = s.spent + 1;
  const failure = repeated ? 'loop_detected' : spent >= ctx.config.budget ? 'budget_spent' : null;
  return {
    spent,
    decision: null,
    tried: s.tried.includes(candidate) ? s.tried : [...s.tried, candidate].slice(-MAX_TRIED),
    history: [
      ...s.history,
      { kind: 'submission', callId: decision.callId, thinking: decision.thinking, password: candidate, verdict },
    ],
    failure,
  };
}
