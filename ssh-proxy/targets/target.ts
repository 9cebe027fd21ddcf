// A wargame the agent can play: where it listens, how many levels it has, what each level asks,
// and what a password looks like, so a malformed candidate is refused before any login is tried.
import type { Target as TargetName } from '../../schema/run.ts';

export type GameTarget = {
  name: TargetName;
  host: string;
  port: number;
  /** The highest level a run can play (the last one whose next password exists). */
  lastLevel: number;
  /** Level N's task: logged in as bandit<N>, find bandit<N+1>'s password. */
  goal(level: number): string;
  username(level: number): string;
};

/** Every Bandit password but level 0's is 32 letters and digits. */
const PASSWORD_SHAPE = /^[A-Za-z0-9]{32}$/;

/** Why `candidate` cannot be bandit<level>'s password, or null when its shape fits. */
export function passwordShapeProblem(candidate: string, level: number): string | null {
  if (level === 0) return candidate === 'bandit0' ? null : 'level 0\'s password is "bandit0"';
  if (PASSWORD_SHAPE.test(candidate)) return null;
  return `"${candidate.length > 40 ? `${candidate.slice(0, 40)}…` : candidate}" is not shaped like a Bandit password (32 letters and digits)`;
}

/** Finds every token in `text` that is shaped like a Bandit password. */
export function passwordShapedTokens(text: string): string[] {
  return text.match(/(?<![A-Za-z0-9])[A-Za-z0-9]{32}(?![A-Za-z0-9])/g) ?? [];
}
