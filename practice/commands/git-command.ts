// git in the range, on isomorphic-git over the player's permission-checked filesystem: what levels
// 27–31 need (clone over SSH, log, show, diff, branch, checkout, tag, status, add, commit, push)
// and the everyday rest (fetch, pull, remote, config, cat-file, rev-parse, ls-files, init).
// Subcommands it does not have say so, and exit 1.
import git from 'isomorphic-git';
import { defineCommand } from 'just-bash';
import type { ExecResult } from 'just-bash';
import { gitFs } from '../git/git-fs.ts';
import { blobText, diffTrees, flattenTree, formatCommit, resolveRev } from '../git/git-history.ts';
import type { Repo, TreeEntry } from '../git/git-history.ts';
import { cloneInto, connect, fetchInto, pushTo } from '../git/git-remote.ts';
import type { CommandEnv } from './command-env.ts';
import { fail, ok, parseFlags } from './command-env.ts';

type Ctx = { env: Map<string, string>; cwd: string };

/** Whether a row of isomorphic-git's status matrix (HEAD, work tree, index) has a change in the index. */
function isStaged(head: number, work: number, stage: number): boolean {
  return (
    (head === 0 && stage !== 0) ||
    (head === 1 && stage === 0) ||
    stage === 3 ||
    (head === 1 && stage === 2 && work === 2)
  );
}

const NOT_A_REPO = 'fatal: not a git repository (or any of the parent directories): .git';

export function gitCommand(env: CommandEnv) {
  const { fs } = env;
  const gfs = gitFs(fs);

  async function findRepo(cwd: string): Promise<Repo | null> {
    for (let dir = cwd; ; dir = dir.slice(0, dir.lastIndexOf('/')) || '/') {
      if (await fs.exists(`${dir}/.git/HEAD`).catch(() => false)) return { fs: gfs, dir };
      if (dir === '/') return null;
    }
  }

  async function identity(repo: Repo) {
    const name = ((await git.getConfig({ ...repo, path: 'user.name' })) as string | undefined) ?? fs.who.user;
    const email =
      ((await git.getConfig({ ...repo, path: 'user.email' })) as string | undefined) ?? `${fs.who.user}@practice`;
    return { name, email, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  }

  async function clone(args: string[], ctx: Ctx): Promise<ExecResult> {
    const { flags, operands } = parseFlags(args, ['b', 'o', 'depth', 'branch', 'origin']);
    const quiet = flags.has('q') || flags.has('quiet');
    const [url, target] = operands;
    if (!url) return fail('fatal: You must specify a repository to clone.', 129);
    const name = target ?? (url.replace(/\/+$/, '').split(/[/:]/).pop() ?? 'repo').replace(/\.git$/, '');
    const dir = fs.resolvePath(ctx.cwd, name);
    if ((await fs.exists(dir)) && (await fs.readdir(dir).catch(() => [])).length > 0)
      return fail(`fatal: destination path '${name}' already exists and is not an empty directory.`, 128);
    let stderr = quiet ? '' : `Cloning into '${name}'...\n`;
    const connected = await connect(env, ctx, url);
    if ('error' in connected) return fail(stderr + connected.error, 128);
    try {
      await fs.mkdir(dir, { recursive: true });
      const objects = await cloneInto({ fs: gfs, dir }, connected.remote, url);
      // git shows progress only when its stderr is a terminal: a person's shell, not an exec channel.
      if (env.ask && !quiet)
        stderr += `remote: Enumerating objects: ${objects}, done.\nremote: Counting objects: 100% (${objects}/${objects}), done.\nremote: Total ${objects} (delta 0), reused 0 (delta 0), pack-reused 0\nReceiving objects: 100% (${objects}/${objects}), done.\n`;
      return ok('', stderr);
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
      return fail(
        `${stderr}fatal: could not create work tree dir '${name}': ${err instanceof Error ? err.message.replace(/^E[A-Z]+: /, '') : String(err)}`,
        128,
      );
    }
  }

  async function remoteUrl(repo: Repo): Promise<string | undefined> {
    return (await git.getConfig({ ...repo, path: 'remote.origin.url' })) as string | undefined;
  }

  async function log(repo: Repo, args: string[]): Promise<ExecResult> {
    const { flags, operands } = parseFlags(args, ['n', 'max-count']);
    const countFlag = [...flags.keys()].find((k) => /^\d+$/.test(k));
    const depth = Number(flags.get('n') ?? flags.get('max-count') ?? countFlag ?? Infinity);
    const refs = flags.has('all')
      ? [
          ...(await git.listBranches(repo)),
          ...(await git.listBranches({ ...repo, remote: 'origin' })).map((b) => `origin/${b}`),
        ]
      : [operands[0] ?? 'HEAD'];
    const seen = new Map<string, Awaited<ReturnType<typeof git.log>>[number]>();
    for (const ref of refs) {
      const oid = await resolveRev(repo, ref);
      for (const entry of await git.log({ ...repo, ref: oid })) seen.set(entry.oid, entry);
    }
    const entries = [...seen.values()]
      .sort((a, b) => b.commit.committer.timestamp - a.commit.committer.timestamp)
      .slice(0, Number.isFinite(depth) ? depth : undefined);
    if (flags.has('oneline'))
      return ok(entries.map((e) => `${e.oid.slice(0, 7)} ${e.commit.message.split('\n')[0]}\n`).join(''));
    const patch = flags.has('p') || flags.has('patch');
    const parts: string[] = [];
    for (const entry of entries) parts.push(await formatCommit(repo, entry, patch));
    return ok(parts.join('\n'));
  }

  async function show(repo: Repo, args: string[]): Promise<ExecResult> {
    const { operands } = parseFlags(args);
    let out = '';
    for (const rev of operands.length ? operands : ['HEAD']) {
      const [name, path] = rev.includes(':')
        ? [rev.slice(0, rev.indexOf(':')), rev.slice(rev.indexOf(':') + 1)]
        : [rev, undefined];
      const oid = await resolveRev(repo, name || 'HEAD');
      const { type } = await git.readObject({ ...repo, oid, format: 'content' });
      if (path !== undefined) {
        const entry = (await flattenTree(repo, oid)).get(path);
        if (!entry) return fail(`fatal: path '${path}' does not exist in '${name}'`, 128);
        out += await blobText(repo, entry.oid);
      } else if (type === 'commit') out += await formatCommit(repo, await git.readCommit({ ...repo, oid }), true);
      else if (type === 'blob') out += await blobText(repo, oid);
      else if (type === 'tree')
        out += `tree ${rev}\n\n${(await git.readTree({ ...repo, oid })).tree.map((e) => `${e.path}${e.type === 'tree' ? '/' : ''}\n`).join('')}`;
      else out += (await git.readObject({ ...repo, oid, format: 'parsed' })).object as string;
    }
    return ok(out);
  }

  /** The work tree's tracked files as a tree map (blob ids of their current content). */
  async function workTree(repo: Repo): Promise<Map<string, TreeEntry>> {
    const files = new Map<string, TreeEntry>();
    for (const path of await git.listFiles(repo)) {
      const content = await fs.readFileBuffer(`${repo.dir}/${path}`).catch(() => undefined);
      if (content) files.set(path, { oid: (await git.hashBlob({ object: content })).oid, mode: '100644' });
    }
    return files;
  }

  async function diff(repo: Repo, args: string[]): Promise<ExecResult> {
    const { operands } = parseFlags(args);
    const revs = operands.length === 1 && operands[0]!.includes('..') ? operands[0]!.split(/\.\.\.?/) : operands;
    const tree = async (rev: string | undefined) => (rev ? flattenTree(repo, await resolveRev(repo, rev)) : undefined);
    const from = (await tree(revs[0] || 'HEAD'))!;
    let to = await tree(revs[1]);
    if (!to) {
      to = await workTree(repo);
      // Blobs of the work tree are not in the object store yet: write them so the diff can read them.
      for (const path of to.keys())
        await git.writeBlob({ ...repo, blob: await fs.readFileBuffer(`${repo.dir}/${path}`) });
    }
    return ok(await diffTrees(repo, from, to));
  }

  async function branch(repo: Repo, args: string[]): Promise<ExecResult> {
    const { flags, operands } = parseFlags(args);
    if (operands[0] && !flags.has('a') && !flags.has('r')) {
      await git.branch({ ...repo, ref: operands[0], object: await resolveRev(repo, operands[1] ?? 'HEAD') });
      return ok('');
    }
    const current = await git.currentBranch(repo);
    let out = '';
    if (!flags.has('r')) for (const b of await git.listBranches(repo)) out += `${b === current ? '*' : ' '} ${b}\n`;
    if (flags.has('a') || flags.has('r')) {
      const prefix = flags.has('a') ? 'remotes/' : '';
      const head = await git.resolveRef({ ...repo, ref: 'refs/remotes/origin/HEAD', depth: 1 }).catch(() => undefined);
      if (head?.startsWith('refs/remotes/')) out += `  ${prefix}origin/HEAD -> ${head.slice('refs/remotes/'.length)}\n`;
      for (const b of (await git.listBranches({ ...repo, remote: 'origin' })).filter((b) => b !== 'HEAD'))
        out += `  ${prefix}origin/${b}\n`;
    }
    return ok(out);
  }

  async function checkout(repo: Repo, args: string[]): Promise<ExecResult> {
    const { flags, operands } = parseFlags(args, ['b', 'c']);
    const created = flags.get('b') ?? flags.get('c');
    if (typeof created === 'string') {
      await git.branch({
        ...repo,
        ref: created,
        object: await resolveRev(repo, operands[0] ?? 'HEAD'),
        checkout: true,
      });
      return ok('', `Switched to a new branch '${created}'\n`);
    }
    const target = operands[0];
    if (!target) return fail('fatal: you must specify a branch to switch to', 128);
    const local = await git.listBranches(repo);
    if (local.includes(target)) {
      await git.checkout({ ...repo, ref: target });
      return ok('', `Switched to branch '${target}'\n`);
    }
    const remote = await git.listBranches({ ...repo, remote: 'origin' });
    if (remote.includes(target)) {
      await git.branch({ ...repo, ref: target, object: await resolveRev(repo, `origin/${target}`) });
      await git.setConfig({ ...repo, path: `branch.${target}.remote`, value: 'origin' });
      await git.setConfig({ ...repo, path: `branch.${target}.merge`, value: `refs/heads/${target}` });
      await git.checkout({ ...repo, ref: target });
      return ok('', `branch '${target}' set up to track 'origin/${target}'.\nSwitched to a new branch '${target}'\n`);
    }
    const oid = await resolveRev(repo, target).catch(() => undefined);
    if (!oid) return fail(`error: pathspec '${target}' did not match any file(s) known to git`);
    await git.checkout({ ...repo, ref: oid });
    const { commit } = await git.readCommit({ ...repo, oid });
    return ok(
      '',
      `Note: switching to '${target}'.\n\nYou are in 'detached HEAD' state.\n\nHEAD is now at ${oid.slice(0, 7)} ${commit.message.split('\n')[0]}\n`,
    );
  }

  async function status(repo: Repo): Promise<ExecResult> {
    const current = await git.currentBranch(repo);
    let out = current ? `On branch ${current}\n` : 'HEAD detached\n';
    const upstream = current
      ? await git.resolveRef({ ...repo, ref: `refs/remotes/origin/${current}` }).catch(() => undefined)
      : undefined;
    if (upstream && current) {
      const head = await git.resolveRef({ ...repo, ref: 'HEAD' });
      const ahead =
        head === upstream ? 0 : (await git.log({ ...repo, ref: head })).findIndex((e) => e.oid === upstream);
      out +=
        ahead === 0
          ? `Your branch is up to date with 'origin/${current}'.\n`
          : `Your branch is ahead of 'origin/${current}' by ${ahead} commit${ahead === 1 ? '' : 's'}.\n  (use "git push" to publish your local commits)\n`;
    }
    const staged: string[] = [];
    const changed: string[] = [];
    const untracked: string[] = [];
    for (const [path, head, work, stage] of await git.statusMatrix(repo)) {
      if (head === 0 && work === 2 && stage === 0) untracked.push(path);
      if (isStaged(head, work, stage))
        staged.push(`${head === 0 ? 'new file:   ' : stage === 0 ? 'deleted:    ' : 'modified:   '}${path}`);
      if ((stage === 1 || stage === 3) && work === 2) changed.push(`modified:   ${path}`);
      else if (head === 1 && work === 0 && stage !== 0) changed.push(`deleted:    ${path}`);
    }
    if (staged.length)
      out += `\nChanges to be committed:\n  (use "git restore --staged <file>..." to unstage)\n${staged.map((s) => `\t${s}\n`).join('')}`;
    if (changed.length)
      out += `\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n${changed.map((s) => `\t${s}\n`).join('')}`;
    if (untracked.length)
      out += `\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n${untracked.map((s) => `\t${s}\n`).join('')}`;
    if (!staged.length && !changed.length)
      out += untracked.length
        ? '\nnothing added to commit but untracked files present (use "git add" to track)\n'
        : '\nnothing to commit, working tree clean\n';
    return ok(out);
  }

  async function add(repo: Repo, args: string[], ctx: Ctx): Promise<ExecResult> {
    const { flags, operands } = parseFlags(args);
    const force = flags.has('f') || flags.has('force');
    const paths = operands.length === 0 && (flags.has('A') || flags.has('all')) ? ['.'] : operands;
    if (!paths.length) return ok('', 'Nothing specified, nothing added.\n');
    const ignored: string[] = [];
    for (const operand of paths) {
      const absolute = fs.resolvePath(ctx.cwd, operand);
      const path = absolute === repo.dir ? '.' : absolute.slice(repo.dir.length + 1);
      if (!(await fs.exists(absolute))) return fail(`fatal: pathspec '${operand}' did not match any files`, 128);
      if (path !== '.' && !force && (await git.isIgnored({ ...repo, filepath: path }))) {
        ignored.push(operand);
        continue;
      }
      await git.add({ ...repo, filepath: path, force });
    }
    if (ignored.length) {
      return fail(
        `The following paths are ignored by one of your .gitignore files:\n${ignored.join('\n')}\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"`,
      );
    }
    return ok('');
  }

  async function commit(repo: Repo, args: string[]): Promise<ExecResult> {
    const { flags } = parseFlags(args, ['m', 'message']);
    const message = flags.get('m') ?? flags.get('message');
    if (flags.has('a') || flags.has('all')) {
      for (const [path, head, work] of await git.statusMatrix(repo))
        if (head === 1 && work === 2) await git.add({ ...repo, filepath: path });
    }
    const head = await git.resolveRef({ ...repo, ref: 'HEAD' }).catch(() => undefined);
    const before = await flattenTree(repo, head);
    const matrix = await git.statusMatrix(repo);
    if (!matrix.some(([, h, w, stage]) => isStaged(h, w, stage))) {
      return { stdout: (await status(repo)).stdout, stderr: '', exitCode: 1 };
    }
    if (typeof message !== 'string')
      return fail('error: the practice range has no editor for commit messages; use git commit -m "message"');
    const author = await identity(repo);
    const oid = await git.commit({ ...repo, message: `${message}\n`, author, committer: author });
    const after = await flattenTree(repo, oid);
    const changes = [...new Set([...before.keys(), ...after.keys()])].filter(
      (p) => before.get(p)?.oid !== after.get(p)?.oid,
    );
    const created = changes.filter((p) => !before.has(p));
    const branchName = (await git.currentBranch(repo)) ?? 'detached HEAD';
    const root = head ? '' : ' (root-commit)';
    return ok(
      `[${branchName}${root} ${oid.slice(0, 7)}] ${message.split('\n')[0]}\n ${changes.length} file${changes.length === 1 ? '' : 's'} changed\n${created.map((p) => ` create mode 100644 ${p}\n`).join('')}`,
    );
  }

  async function push(repo: Repo, args: string[], ctx: Ctx): Promise<ExecResult> {
    const { operands } = parseFlags(args);
    const [remoteName = 'origin', refspec] = operands;
    if (remoteName !== 'origin')
      return fail(
        `fatal: '${remoteName}' does not appear to be a git repository\nfatal: Could not read from remote repository.`,
        128,
      );
    const url = await remoteUrl(repo);
    if (!url) return fail('fatal: No configured push destination.', 128);
    const branchName = refspec?.split(':')[0] || (await git.currentBranch(repo));
    if (!branchName) return fail('fatal: You are not currently on a branch.', 128);
    const connected = await connect(env, ctx, url);
    if ('error' in connected) return fail(connected.error, 128);
    const spec = env.world.repos.find((r) => r.path === connected.at.path);
    const result = await pushTo(repo, connected.remote, url, branchName, spec?.pushHook);
    return { stdout: '', ...result };
  }

  async function fetch(repo: Repo, ctx: Ctx, merge: boolean): Promise<ExecResult> {
    const url = await remoteUrl(repo);
    if (!url) return fail("fatal: 'origin' does not appear to be a git repository", 128);
    const connected = await connect(env, ctx, url);
    if ('error' in connected) return fail(connected.error, 128);
    await fetchInto(repo, connected.remote);
    if (!merge) return ok('');
    const current = await git.currentBranch(repo);
    if (!current) return fail('You are not currently on a branch.', 1);
    const result = await git
      .merge({
        ...repo,
        ours: current,
        theirs: `origin/${current}`,
        fastForwardOnly: true,
        author: await identity(repo),
      })
      .catch((err: Error) => err);
    if (result instanceof Error) return fail(`fatal: Not possible to fast-forward, aborting.`, 128);
    if (result.alreadyMerged) return ok('Already up to date.\n');
    await git.checkout({ ...repo, ref: current });
    return ok(`Fast-forward\n`);
  }

  async function inRepo(sub: string, repo: Repo, args: string[], ctx: Ctx): Promise<ExecResult> {
    switch (sub) {
      case 'log':
        return log(repo, args);
      case 'show':
        return show(repo, args);
      case 'diff':
        return diff(repo, args);
      case 'branch':
        return branch(repo, args);
      case 'checkout':
      case 'switch':
        return checkout(repo, args);
      case 'tag':
        return ok((await git.listTags(repo)).map((t) => `${t}\n`).join(''));
      case 'status':
        return status(repo);
      case 'add':
        return add(repo, args, ctx);
      case 'commit':
        return commit(repo, args);
      case 'push':
        return push(repo, args, ctx);
      case 'fetch':
      case 'pull':
        return fetch(repo, ctx, sub === 'pull');
      case 'remote': {
        const url = await remoteUrl(repo);
        return ok(url ? (args.includes('-v') ? `origin\t${url} (fetch)\norigin\t${url} (push)\n` : 'origin\n') : '');
      }
      case 'ls-files':
        return ok((await git.listFiles(repo)).map((f) => `${f}\n`).join(''));
      case 'rev-parse':
        return ok(
          `${(await Promise.all(args.filter((a) => !a.startsWith('-')).map((a) => resolveRev(repo, a)))).join('\n')}\n`,
        );
      case 'cat-file': {
        const { flags, operands } = parseFlags(args);
        const oid = await resolveRev(repo, operands[0] ?? '');
        const { type } = await git.readObject({ ...repo, oid, format: 'content' });
        if (flags.has('t')) return ok(`${type}\n`);
        return show(repo, [oid]);
      }
      case 'config': {
        const { operands } = parseFlags(args);
        const [path, value] = operands;
        if (!path) return fail('usage: git config [<options>]', 129);
        if (value === undefined) {
          const found = await git.getConfig({ ...repo, path });
          return found === undefined ? { stdout: '', stderr: '', exitCode: 1 } : ok(`${String(found)}\n`);
        }
        await git.setConfig({ ...repo, path, value });
        return ok('');
      }
      default:
        return fail(
          `git: the practice range's git does not have '${sub}'; it has clone, log, show, diff, branch, checkout, switch, tag, status, add, commit, push, fetch, pull, remote, config, cat-file, rev-parse, ls-files and init`,
        );
    }
  }

  return defineCommand('git', async (rawArgs, ctx) => {
    let args = [...rawArgs];
    let cwd = ctx.cwd;
    while (args[0] === '-C' || args[0] === '--no-pager' || args[0] === '-P' || args[0] === '-c') {
      if (args[0] === '-C') cwd = fs.resolvePath(cwd, args[1] ?? '.');
      args = args.slice(args[0] === '-C' || args[0] === '-c' ? 2 : 1);
    }
    const [sub, ...rest] = args;
    const here = { env: ctx.env, cwd };
    if (!sub || sub === '--help' || sub === 'help')
      return ok(
        'usage: git [-C <path>] <command> [<args>]\n\nThe practice range emulates: clone, log, show, diff, branch, checkout, switch, tag, status, add, commit, push, fetch, pull, remote, config, cat-file, rev-parse, ls-files, init\n',
      );
    if (sub === '--version' || sub === 'version') return ok('git version 2.39.5\n');
    try {
      if (sub === 'clone') return await clone(rest, here);
      if (sub === 'init') {
        const dir = fs.resolvePath(cwd, rest.find((a) => !a.startsWith('-')) ?? '.');
        await fs.mkdir(dir, { recursive: true });
        await git.init({ fs: gfs, dir, defaultBranch: 'master' });
        return ok(`Initialized empty Git repository in ${dir}/.git/\n`);
      }
      const repo = await findRepo(cwd);
      if (!repo) return fail(NOT_A_REPO, 128);
      return await inRepo(sub, repo, rest, here);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (message.startsWith('fatal:')) return fail(message, 128);
      if (/EACCES|permission denied/i.test(message)) return fail(`error: ${message.replace(/^E[A-Z]+: /, '')}`, 128);
      return fail(`fatal: ${message}`, 128);
    }
  });
}
