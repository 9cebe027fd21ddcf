// What a login runs: the user's login shell from /etc/passwd. bash for most, showtext (more) for
// bandit26, the uppercase shell for bandit32, and git-shell, which refuses logins, for the git users.
import type { PracticeSession } from '../session.ts';
import type { Identity } from '../world/accounts.ts';
import { GIT_SHELL, SHOWTEXT, UPPERSHELL, loginShell } from '../world/accounts.ts';
import { LineShell } from './line-shell.ts';
import { MorePager } from './more-pager.ts';
import type { Terminal } from './terminal.ts';
import { UpperShell } from './upper-shell.ts';

export const GIT_SHELL_REFUSAL =
  'fatal: Interactive git shell is not enabled.\nhint: ~/git-shell-commands should exist and have read and execute access.\n';

/** A login nested in the terminal (ssh from inside the range) says so when it ends. */
export const NESTED_FAREWELL = 'Connection to localhost closed.\n';

export function startLogin(
  terminal: Terminal,
  session: PracticeSession,
  who: Identity,
  options: { greeting?: string; farewell?: string } = {},
): void {
  const shell = loginShell(who.user);
  if (options.greeting) terminal.write(options.greeting);
  const farewell = options.farewell ?? '';
  if (shell === SHOWTEXT) {
    new MorePager(terminal, session, who, `/home/${who.user}/text.txt`, farewell);
  } else if (shell === UPPERSHELL) {
    new UpperShell(terminal, session, who, farewell);
  } else if (shell === GIT_SHELL) {
    terminal.write(GIT_SHELL_REFUSAL + farewell);
    // Nothing was pushed: resume whoever had the terminal, or end the session as git-shell does.
    if (terminal.depth > 0) terminal.resumeTop();
    else terminal.close(128);
  } else {
    new LineShell(terminal, session, who, {
      farewell: `logout\n${farewell}`,
      login: (other) => startLogin(terminal, session, other, { farewell: NESTED_FAREWELL }),
    });
  }
}
