// Whose password a paused run asks for. At a start above level 0 (`password_required`) the run needs
// the login of the level it is on; at any other pause a password is the next level's, which the
// current level's work would have found. The web dialog and the CLI prompt both name the user from here.
import type { PendingAction } from './protocol.ts';

/** The level whose login the password a person gives at this pause opens. */
export function passwordLevelOf(pending: Pick<PendingAction, 'reason' | 'level'>): number {
  return pending.reason === 'password_required' ? pending.level : pending.level + 1;
}

/** The Bandit user whose password this pause asks for, e.g. "bandit2" for a run that starts at level 2. */
export function passwordUserOf(pending: Pick<PendingAction, 'reason' | 'level'>): string {
  return `bandit${passwordLevelOf(pending)}`;
}
