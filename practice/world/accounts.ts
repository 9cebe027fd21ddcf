// Users and groups of the range: root, bandit0…bandit33 and the git users bandit27-git…bandit31-git,
// each with a group of the same name.
/** Who is acting: the login user, the effective user (differs under setuid), and groups. */
export type Identity = { user: string; uid: number; euser: string; euid: number; groups: string[] };

/** The highest user that exists: bandit33, whose home holds the game's closing note. */
export const LAST_USER = 33;

/** Levels 27–31 clone a repository over SSH as banditN-git, with bandit N's password. */
export const GIT_LEVELS = [27, 28, 29, 30, 31] as const;

/** Login shells that are not bash: the ones levels 25→26 and 32→33 are about escaping. */
export const SHOWTEXT = '/usr/bin/showtext';
export const UPPERSHELL = '/home/bandit32/uppershell';
export const GIT_SHELL = '/usr/bin/git-shell';

const GIT_USER = /^bandit(\d+)-git$/;

/** The level whose password logs in as `user`, or undefined for users nobody logs in as. */
export function passwordLevel(user: string): number | undefined {
  const git = GIT_USER.exec(user)?.[1];
  if (git !== undefined) return (GIT_LEVELS as readonly number[]).includes(Number(git)) ? Number(git) : undefined;
  const n = /^bandit(\d+)$/.exec(user)?.[1];
  return n !== undefined && Number(n) <= LAST_USER ? Number(n) : undefined;
}

export function uidOf(user: string): number {
  if (user === 'root') return 0;
  const git = GIT_USER.exec(user)?.[1];
  if (git !== undefined) return 11100 + Number(git);
  const n = /^bandit(\d+)$/.exec(user)?.[1];
  return n === undefined ? 65534 : 11000 + Number(n);
}

export function userExists(user: string): boolean {
  return user === 'root' || passwordLevel(user) !== undefined;
}

/** Every user of the range but root, in /etc/passwd order. */
export function allUsers(): string[] {
  const users: string[] = [];
  for (let n = 0; n <= LAST_USER; n++) users.push(`bandit${n}`);
  for (const n of GIT_LEVELS) users.push(`bandit${n}-git`);
  return users;
}

/** The login shell /etc/passwd gives `user`. */
export function loginShell(user: string): string {
  if (user === 'bandit26') return SHOWTEXT;
  if (user === 'bandit32') return UPPERSHELL;
  if (GIT_USER.test(user)) return GIT_SHELL;
  return '/bin/bash';
}

/** The identity of a fresh login as `user`. */
export function loginIdentity(user: string): Identity {
  return { user, uid: uidOf(user), euser: user, euid: uidOf(user), groups: [user] };
}

/** `who` running a setuid program owned by `owner`. */
export function setuidIdentity(who: Identity, owner: string): Identity {
  return { ...who, euser: owner, euid: uidOf(owner) };
}
