// Users and groups of the range: root and bandit0…banditN, each with a group of the same name.
/** Who is acting: the login user, the effective user (differs under setuid), and groups. */
export type Identity = { user: string; uid: number; euser: string; euid: number; groups: string[] };

/** The highest user that exists: levels go up to LAST_LEVEL, whose password belongs to bandit(LAST_LEVEL+1). */
export const LAST_USER = 21;

export function uidOf(user: string): number {
  if (user === 'root') return 0;
  const n = /^bandit(\d+)$/.exec(user)?.[1];
  return n === undefined ? 65534 : 11000 + Number(n);
}

export function userExists(user: string): boolean {
  const n = /^bandit(\d+)$/.exec(user)?.[1];
  return user === 'root' || (n !== undefined && Number(n) <= LAST_USER);
}

/** The identity of a fresh login as `user`. */
export function loginIdentity(user: string): Identity {
  return { user, uid: uidOf(user), euser: user, euid: uidOf(user), groups: [user] };
}

/** `who` running a setuid program owned by `owner`. */
export function setuidIdentity(who: Identity, owner: string): Identity {
  return { ...who, euser: owner, euid: uidOf(owner) };
}
