// The world laid out in one shared in-memory filesystem, like one shared Bandit server: every
// connection sees the same files through its own permission-checked view.
import { Bash, InMemoryFs } from 'just-bash';
import type { CustomCommand } from 'just-bash';
import { OwnershipTable } from '../fs/ownership.ts';
import { buildRepo } from '../git/repo-builder.ts';
import { WORLD_MTIME } from './world.ts';
import type { World } from './world.ts';

/** The shared filesystem and its owner table. */
export type WorldFs = { fs: InMemoryFs; owners: OwnershipTable };

/** Builds the filesystem; `commandNames` get /usr/bin stubs so the shell can find them. */
export async function layOutWorld(world: World, commands: CustomCommand[]): Promise<WorldFs> {
  const fs = new InMemoryFs();
  // A throwaway shell creates /bin, /usr/bin (with a stub per command), /dev and /proc.
  new Bash({ fs, customCommands: commands, cwd: '/' });
  const owners = new OwnershipTable();
  for (const node of [...world.nodes].sort((a, b) => a.path.split('/').length - b.path.split('/').length)) {
    if (node.kind === 'dir') {
      await fs.mkdir(node.path, { recursive: true });
    } else {
      await fs.writeFile(node.path, typeof node.content === 'string' ? node.content : (node.content ?? ''));
    }
    await fs.chmod(node.path, node.mode);
    await fs.utimes(node.path, WORLD_MTIME, WORLD_MTIME);
    owners.set(node.path, { owner: node.owner, group: node.group, ...(node.program ? { program: node.program } : {}) });
  }
  // The git levels' repositories: only their git user may read them, so a clone goes over SSH.
  for (const spec of world.repos) {
    for (const path of await buildRepo(fs, spec)) {
      await fs.utimes(path, WORLD_MTIME, WORLD_MTIME);
      owners.set(path, { owner: spec.user, group: spec.user });
    }
    await fs.chmod(spec.path, 0o700);
  }
  // Nobody may snoop in /proc or list /root; /bin stays as just-bash made it.
  await fs.chmod('/proc', 0o555);
  return { fs, owners };
}
