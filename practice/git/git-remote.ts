// git over SSH inside the range: the URL names a git user on localhost, the password is asked as
// OpenSSH asks it, and the repository is then read (clone, fetch) or written (push) as that user.
// Both ends are on the range's one filesystem, so objects are copied the way git copies them
// for a local clone, and a push runs the repository's pre-receive hook (levels-git.ts).
import git from 'isomorphic-git';
import type { CommandEnv } from '../commands/command-env.ts';
import { isLocalHost } from '../commands/network-commands.ts';
import { passwordLogin } from '../commands/password-prompt.ts';
import { loginIdentity, passwordLevel } from '../world/accounts.ts';
import { gitFs } from './git-fs.ts';
import { blobText, flattenTree } from './git-history.ts';
import type { Repo } from './git-history.ts';

export type RemoteUrl = { user: string; host: string; port: number; path: string };

/** ssh://user@host[:port]/path or the scp form user@host:path. */
export function parseRemoteUrl(url: string): RemoteUrl | null {
  const ssh = /^ssh:\/\/(?:([^@/]+)@)?([^:/]+)(?::(\d+))?(\/.*)$/.exec(url);
  if (ssh) return { user: ssh[1] ?? '', host: ssh[2]!, port: Number(ssh[3] ?? 22), path: ssh[4]! };
  const scp = /^(?:([^@/]+)@)?([^:/]+):(.+)$/.exec(url);
  if (scp)
    return {
      user: scp[1] ?? '',
      host: scp[2]!,
      port: 22,
      path: scp[3]!.startsWith('/') ? scp[3]! : `/home/${scp[1]}/${scp[3]}`,
    };
  return null;
}

const NO_ACCESS =
  'fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n';

type Ctx = { env: Map<string, string>; cwd: string };

/** Logs in as the URL's user; the remote repository as that user sees it, or git's error. */
export async function connect(
  env: CommandEnv,
  ctx: Ctx,
  url: string,
): Promise<{ remote: Repo; at: RemoteUrl } | { error: string }> {
  const at = parseRemoteUrl(url);
  if (!at) return { error: `fatal: repository '${url}' does not exist\n` };
  if (!isLocalHost(at.host))
    return { error: `ssh: Could not resolve hostname ${at.host}: Name or service not known\n${NO_ACCESS}` };
  if (at.port !== 22 && at.port !== 2220 && at.port !== env.session.sshPort)
    return { error: `ssh: connect to host ${at.host} port ${at.port}: Connection refused\n${NO_ACCESS}` };
  const user = at.user || env.fs.who.user;
  const level = passwordLevel(user);
  const ok =
    level !== undefined &&
    (await passwordLogin(env, ctx, `${user}@${at.host}'s password: `, (given) => given === env.world.passwords[level]));
  if (!ok) return { error: `${user}@${at.host}: Permission denied (publickey,password).\r\n${NO_ACCESS}` };
  const fs = env.fs.as(loginIdentity(user));
  if (!(await fs.exists(`${at.path}/HEAD`).catch(() => false)))
    return { error: `fatal: '${at.path}' does not appear to be a git repository\n${NO_ACCESS}` };
  return { remote: { fs: gitFs(fs), dir: at.path }, at };
}

const bare = (repo: Repo) => ({ fs: repo.fs, gitdir: repo.dir });

/** Every object reachable from `oids` that `has` does not have (what a fetch or push sends). */
async function missingObjects(
  from: Repo,
  oids: string[],
  has: (oid: string) => Promise<boolean>,
  gitdir = true,
): Promise<string[]> {
  const repo = gitdir ? bare(from) : from;
  const seen = new Set<string>();
  const queue = [...oids];
  while (queue.length) {
    const oid = queue.pop()!;
    if (seen.has(oid) || (await has(oid))) continue;
    seen.add(oid);
    const { type, object } = await git.readObject({ ...repo, oid, format: 'parsed' });
    if (type === 'commit') {
      const c = object as { tree: string; parent: string[] };
      queue.push(c.tree, ...c.parent);
    } else if (type === 'tree') queue.push(...(object as { oid: string }[]).map((e) => e.oid));
  }
  return [...seen];
}

async function copyObjects(
  from: { fs: Repo['fs']; gitdir?: string; dir?: string },
  to: { fs: Repo['fs']; gitdir?: string; dir?: string },
  oids: string[],
): Promise<void> {
  for (const oid of oids) {
    const { object } = await git.readObject({ ...from, oid, format: 'deflated' });
    await git.writeObject({ ...to, oid, object: object as Uint8Array, format: 'deflated' });
  }
}

const exists = (repo: { fs: Repo['fs']; gitdir?: string; dir?: string }) => async (oid: string) => {
  try {
    await git.readObject({ ...repo, oid, format: 'deflated' });
    return true;
  } catch {
    return false;
  }
};

/** The remote's branches and tags with their ids, and its HEAD branch. */
async function remoteRefs(
  remote: Repo,
): Promise<{ head: string; branches: Map<string, string>; tags: Map<string, string> }> {
  const r = bare(remote);
  const branches = new Map<string, string>();
  for (const name of await git.listBranches(r))
    branches.set(name, await git.resolveRef({ ...r, ref: `refs/heads/${name}` }));
  const tags = new Map<string, string>();
  for (const name of await git.listTags(r)) tags.set(name, await git.resolveRef({ ...r, ref: `refs/tags/${name}` }));
  const head = (await git.currentBranch({ ...r, fullname: false })) ?? 'master';
  return { head, branches, tags };
}

/** Brings the remote's objects and refs into `local` (refs/remotes/origin/*, tags); returns the object count. */
export async function fetchInto(local: Repo, remote: Repo): Promise<{ head: string; objects: number }> {
  const refs = await remoteRefs(remote);
  const missing = await missingObjects(remote, [...refs.branches.values(), ...refs.tags.values()], exists(local), true);
  await copyObjects(bare(remote), local, missing);
  for (const [name, oid] of refs.branches)
    await git.writeRef({ ...local, ref: `refs/remotes/origin/${name}`, value: oid, force: true });
  for (const [name, oid] of refs.tags)
    await git.writeRef({ ...local, ref: `refs/tags/${name}`, value: oid, force: true });
  await git.writeRef({
    ...local,
    ref: 'refs/remotes/origin/HEAD',
    value: `refs/remotes/origin/${refs.head}`,
    symbolic: true,
    force: true,
  });
  return { head: refs.head, objects: missing.length };
}

/** A clone: an empty repository, the remote's objects and refs, the default branch checked out. */
export async function cloneInto(local: Repo, remote: Repo, url: string): Promise<number> {
  await git.init({ ...local, defaultBranch: 'master' });
  const { head, objects } = await fetchInto(local, remote);
  await git.setConfig({ ...local, path: 'remote.origin.url', value: url });
  await git.setConfig({ ...local, path: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' });
  const tip = await git.resolveRef({ ...local, ref: `refs/remotes/origin/${head}` }).catch(() => undefined);
  if (tip) {
    await git.writeRef({ ...local, ref: `refs/heads/${head}`, value: tip, force: true });
    await git.setConfig({ ...local, path: `branch.${head}.remote`, value: 'origin' });
    await git.setConfig({ ...local, path: `branch.${head}.merge`, value: `refs/heads/${head}` });
    await git.checkout({ ...local, ref: head });
  }
  return objects;
}

/** A push of `branch`: the hook's words and whether the remote took it. */
export async function pushTo(
  local: Repo,
  remote: Repo,
  url: string,
  branch: string,
  hook: ((branch: string, files: Map<string, string>) => { accepted: boolean; lines: string[] }) | undefined,
): Promise<{ stderr: string; exitCode: number }> {
  const tip = await git.resolveRef({ ...local, ref: `refs/heads/${branch}` }).catch(() => undefined);
  if (!tip)
    return {
      stderr: `error: src refspec ${branch} does not match any\nerror: failed to push some refs to '${url}'\n`,
      exitCode: 1,
    };
  const theirs = await git.resolveRef({ ...bare(remote), ref: `refs/heads/${branch}` }).catch(() => undefined);
  if (theirs === tip) return { stderr: 'Everything up-to-date\n', exitCode: 0 };
  const missing = await missingObjects(local, [tip], exists(bare(remote)), false);
  let stderr = `Enumerating objects: ${missing.length}, done.\nCounting objects: 100% (${missing.length}/${missing.length}), done.\nWriting objects: 100% (${missing.length}/${missing.length}), done.\nTotal ${missing.length} (delta 0), reused 0 (delta 0), pack-reused 0\n`;
  if (hook) {
    const files = new Map<string, string>();
    for (const [path, entry] of await flattenTree(local, tip)) files.set(path, await blobText(local, entry.oid));
    const verdict = hook(branch, files);
    stderr += verdict.lines.map((line) => `remote: ${line}\n`).join('');
    if (!verdict.accepted) {
      return {
        stderr: `${stderr}To ${url}\n ! [remote rejected] ${branch} -> ${branch} (pre-receive hook declined)\nerror: failed to push some refs to '${url}'\n`,
        exitCode: 1,
      };
    }
  }
  if (theirs && !(await git.isDescendent({ ...local, oid: tip, ancestor: theirs }).catch(() => false))) {
    return {
      stderr: `To ${url}\n ! [rejected]        ${branch} -> ${branch} (fetch first)\nerror: failed to push some refs to '${url}'\n`,
      exitCode: 1,
    };
  }
  try {
    await copyObjects(local, bare(remote), missing);
    await git.writeRef({ ...bare(remote), ref: `refs/heads/${branch}`, value: tip, force: true });
  } catch {
    return {
      stderr: `${stderr}remote: error: insufficient permission for adding an object to repository database ./objects\nerror: failed to push some refs to '${url}'\n`,
      exitCode: 1,
    };
  }
  const range = theirs ? `   ${theirs.slice(0, 7)}..${tip.slice(0, 7)}  ` : ' * [new branch]      ';
  return { stderr: `${stderr}To ${url}\n${range}${branch} -> ${branch}\n`, exitCode: 0 };
}
