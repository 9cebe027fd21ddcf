// connect: log in as the current level and start an attempt. A refused or unreachable login is
// something a person must resolve, so it becomes a fault (and a pause), never an exception.
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
  const attempt = freshAttempt(s);
  ctx.emit({
    type: 'level_started',
    level: s.level,
    attempt: attempt.attempt ?? 1,
    retryCount: s.retryCount,
    address: `${ctx.target.host}:${ctx.target.port}`,
  });
  return { ...attempt, lastError: null };
}
