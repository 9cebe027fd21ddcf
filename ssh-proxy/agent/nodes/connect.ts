// connect: log in as the current level and start an attempt. A refused or unreachable login is
// something a person must resolve, so it becomes a fault (and a pause), never an exception.
// In a "human" run there is no agent: every level pauses here with human_turn, for the person to play.
import { HUMAN_MODEL } from '../../../schema/run.ts';
import type { BanditState } from '../bandit-state.ts';
import { freshAttempt } from '../bandit-state.ts';
import type { BanditContext } from './bandit-deps.ts';

export async function connect(s: BanditState, ctx: BanditContext): Promise<Partial<BanditState>> {
  const user = ctx.target.username(s.level);
  if (s.password === null) {
    const message = `the run starts at level ${s.level}; give ${user}'s password to begin`;
    return { fault: { reason: 'password_required', message, resumeAt: 'connect' }, lastError: message };
  }
  const login = await ctx.shell.login(s.level, s.password, ctx.signal);
  if (!login.ok) {
    if (login.failure.kind === 'aborted') return {};
    const neverProven = s.levelsSolved === 0 && s.level === ctx.config.startLevel && s.level > 0;
    if (login.failure.kind === 'auth' && neverProven) {
      const message = `${user} refused the password you gave; give the right one`;
      return {
        fault: { reason: 'password_required', message, resumeAt: 'connect' },
        lastError: message,
        password: null,
      };
    }
    const message = `${login.failure.message}; continue tries the login again`;
    ctx.emit({ type: 'error', code: `ssh_${login.failure.kind}`, message, level: s.level });
    return { fault: { reason: 'ssh_error', message, resumeAt: 'connect' }, lastError: message };
  }
  if (ctx.config.model === HUMAN_MODEL) return humanTurn(s, ctx);
  return { ...startAttempt(s, ctx), lastError: null };
}

/** A fresh attempt at the level, announced with level_started. */
function startAttempt(s: BanditState, ctx: BanditContext): Partial<BanditState> {
  const attempt = freshAttempt(s);
  ctx.emit({
    type: 'level_started',
    level: s.level,
    attempt: attempt.attempt ?? 1,
    retryCount: s.retryCount,
    address: `${ctx.target.host}:${ctx.target.port}`,
  });
  return attempt;
}

/** A person's turn at the level: started once (one level_started), asked again on every continue. */
function humanTurn(s: BanditState, ctx: BanditContext): Partial<BanditState> {
  const message = `your turn: play level ${s.level} in the terminal`;
  const fault = { reason: 'human_turn' as const, message, resumeAt: 'connect' as const };
  if (s.attempt > 0) return { fault, lastError: null };
  return { ...startAttempt(s, ctx), fault, lastError: null };
}
