// Builds the level repositories of the world (levels-git.ts) with isomorphic-git, in a scratch
// filesystem, and puts each one in the world as a bare repository owned by its git user. Fixed
// authors and times make the same seed give the same commit ids.
import git from 'isomorphic-git';
import { InMemoryFs } from 'just-bash';
import type { IFileSystem } from 'just-bash';
import type { RepoSpec } from '../world/levels-git.ts';
import { WORLD_MTIME } from '../world/world.ts';
import { copyTree, gitFs } from './git-fs.ts';

export const REPO_AUTHOR = { name: 'Morla Porla', email: 'morla@overthewire.org' };

const BARE_CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n';

/** Writes `spec` as a bare repository at spec.path in `world`; returns every path it created. */
export async function buildRepo(world: IFileSystem, spec: RepoSpec): Promise<string[]> {
  const scratch = new InMemoryFs();
  const fs = gitFs(scratch);
  const dir = '/work';
  await scratch.mkdir(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: spec.branches[0]?.name ?? 'master' });
  // One commit a minute, ending a day before the world's files were last touched.
  let clock = Math.floor(WORLD_MTIME.getTime() / 1000) - 86_400 - 3_600;
  const base = spec.branches[0]?.name ?? 'master';
  for (const [i, branch] of spec.branches.entries()) {
    if (i > 0) {
      await git.checkout({ fs, dir, ref: base, force: true });
      await git.branch({ fs, dir, ref: branch.name, checkout: true });
    }
    for (const commit of branch.commits) {
      for (const [path, content] of Object.entries(commit.files)) {
        const at = path.lastIndexOf('/');
        if (at > 0) await scratch.mkdir(`${dir}/${path.slice(0, at)}`, { recursive: true });
        await scratch.writeFile(`${dir}/${path}`, content);
        await git.add({ fs, dir, filepath: path, force: true });
      }
      clock += 60;
      const author = { ...REPO_AUTHOR, timestamp: clock, timezoneOffset: 0 };
      await git.commit({ fs, dir, message: `${commit.message}\n`, author, committer: author });
    }
  }
  for (const tag of spec.blobTags) {
    const oid = await git.writeBlob({ fs, dir, blob: Buffer.from(tag.content) });
    await git.writeRef({ fs, dir, ref: `refs/tags/${tag.name}`, value: oid });
  }
  await git.checkout({ fs, dir, ref: base, force: true });
  await scratch.rm(`${dir}/.git/index`, { force: true });
  await scratch.writeFile(`${dir}/.git/config`, BARE_CONFIG);
  await copyTree(scratch, `${dir}/.git`, world, spec.path);
  return listTree(world, spec.path);
}

async function listTree(fs: IFileSystem, root: string): Promise<string[]> {
  const paths = [root];
  for (const name of await fs.readdir(root)) {
    const path = `${root}/${name}`;
    if ((await fs.stat(path)).isDirectory) paths.push(...(await listTree(fs, path)));
    else paths.push(path);
  }
  return paths;
}
