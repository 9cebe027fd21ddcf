// The world of a seed on a real disk, run by real bash with Debian's tools: the other side of the
// differential test. Files get the world's owners (as uids), modes and times; a private mount
// namespace and chroot put them at their real paths, with the host's /usr (under the world's own
// /usr files) for the tools, and the world's /etc/passwd so that tools print the users' names.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lutimesSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InMemoryFs } from 'just-bash';
import { buildRepo } from '../../../practice/git/repo-builder.ts';
import { uidOf } from '../../../practice/world/accounts.ts';
import { WORLD_MTIME } from '../../../practice/world/world.ts';
import type { World } from '../../../practice/world/world.ts';

export type RealResult = { stdout: string; stderr: string; exitCode: number };

/**
 * The real side's `ssh user@localhost command`: it runs the command here as the player, with no
 * password (the range asks for one). Real git clones over it with its own ssh transport, so its
 * messages are git's own; git passes the remote command last.
 */
const LOOPBACK_SSH = `#!/bin/sh
while [ $# -gt 1 ]; do shift; done
# sshd would run git-upload-pack as the repository's owner; here the player runs it, which git
# refuses ("dubious ownership") unless the repository is declared safe on its command line.
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0='*'
exec /bin/sh -c "$1"
`;

/** Why the real side cannot run here (not root, no mount namespaces), or undefined when it can. */
export function realSideUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'the differential test needs root (to chown the world and chroot into it)';
  const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'true']);
  if (probe.status !== 0) return `unshare -m fails here: ${probe.stderr.toString().trim()}`;
  return undefined;
}

export class RealWorld {
  readonly root: string;
  private readonly base: string;

  constructor(world: World) {
    this.base = mkdtempSync(join(tmpdir(), 'bandit-fidelity-'));
    this.root = join(this.base, 'root');
    // The host's tools: /usr (under an overlay with the world's own /usr files), and Debian's
    // merged-/usr links. /dev is bound from the host for /dev/null.
    for (const dir of ['root', 'root/dev', 'root/proc', 'usr-world', 'usr-work', 'usr-upper'])
      mkdirSync(join(this.base, dir), { recursive: true });
    for (const link of ['bin', 'lib', 'lib64', 'sbin']) symlinkSync(`usr/${link}`, join(this.root, link));
    const nodes = [...world.nodes].sort((a, b) => a.path.split('/').length - b.path.split('/').length);
    for (const node of nodes) {
      const onDisk =
        node.path === '/usr' || node.path.startsWith('/usr/')
          ? join(this.base, 'usr-world', node.path.slice(4))
          : join(this.root, node.path);
      if (node.kind === 'dir') mkdirSync(onDisk, { recursive: true });
      else writeFileSync(onDisk, node.content ?? '');
    }
    for (const node of nodes.reverse()) {
      const onDisk =
        node.path === '/usr' || node.path.startsWith('/usr/')
          ? join(this.base, 'usr-world', node.path.slice(4))
          : join(this.root, node.path);
      chownSync(onDisk, uidOf(node.owner), uidOf(node.group));
      chmodSync(onDisk, node.mode);
      lutimesSync(onDisk, WORLD_MTIME, WORLD_MTIME);
    }
    mkdirSync(join(this.root, 'usr'), { recursive: true });
    mkdirSync(join(this.root, 'etc/alternatives'), { recursive: true });
  }

  /**
   * The git levels' repositories, as the range builds them, and a loopback `ssh` for real git to
   * clone them with. sshd would run git-upload-pack as the git user; the stand-in runs it as the
   * player, so these copies are readable by all (on the range only their git user reads them).
   */
  async addGitRepos(world: World): Promise<void> {
    for (const spec of world.repos) {
      const scratch = new InMemoryFs();
      for (const path of (await buildRepo(scratch, spec)).sort()) {
        const onDisk = join(this.root, path);
        if ((await scratch.stat(path)).isDirectory) mkdirSync(onDisk, { recursive: true });
        else {
          mkdirSync(dirname(onDisk), { recursive: true });
          writeFileSync(onDisk, await scratch.readFileBuffer(path));
        }
      }
      spawnSync('chown', ['-R', `${uidOf(spec.user)}:${uidOf(spec.user)}`, join(this.root, spec.path)]);
      spawnSync('chmod', ['-R', 'a+rX', join(this.root, spec.path)]);
    }
    mkdirSync(join(this.base, 'usr-world/local/bin'), { recursive: true });
    writeFileSync(join(this.base, 'usr-world/local/bin/ssh'), LOOPBACK_SSH, { mode: 0o755 });
  }

  /**
   * Runs `command` as `user` in their home directory, as bash -c would over ssh. `merged` gives
   * both streams on stdout, in the order they were written, as a terminal shows them.
   */
  run(user: string, command: string, options: { merged?: boolean } = {}): Promise<RealResult> {
    const uid = uidOf(user);
    const setup = [
      `mount -t overlay overlay -o lowerdir=${this.base}/usr-world:/usr ${this.root}/usr`,
      `mount --bind /dev ${this.root}/dev`,
      // /dev/fd is /proc/self/fd: process substitution (diff <(…) <(…)) needs /proc. It is the proc of
      // a PID namespace of its own (unshare -p): with the host's, `find /` walked processes that came
      // and went under a busy test run and now and then gave up before /var, finding nothing.
      `mount -t proc proc ${this.root}/proc`,
      // Debian's alternatives (awk is /etc/alternatives/awk) for the tools in /usr.
      `mount --bind /etc/alternatives ${this.root}/etc/alternatives`,
      `exec chroot ${this.root} /usr/bin/setpriv --reuid=${uid} --regid=${uid} --clear-groups /usr/bin/env -i HOME=/home/${user} USER=${user} LOGNAME=${user} PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C.UTF-8 TZ=UTC /bin/bash -c "cd ~ && eval \\"\\$0\\"" "$1"${options.merged ? ' 2>&1' : ''}`,
    ].join(' && ');
    // Not spawnSync: the range runs in this process, and the two sides of an entry run side by side.
    const child = spawn('unshare', ['-m', '-p', '-f', '--propagation', 'private', 'sh', '-c', setup, 'sh', command], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => stdout.push(d));
    child.stderr.on('data', (d: Buffer) => stderr.push(d));
    return new Promise((resolve) => {
      child.on('close', (status) =>
        resolve({
          stdout: Buffer.concat(stdout).toString('latin1'),
          stderr: Buffer.concat(stderr).toString('latin1'),
          exitCode: status ?? -1,
        }),
      );
    });
  }

  /**
   * Empties /tmp, between corpus entries: the range keeps what every login left there (one shared
   * world), but each entry makes its own names, so this only keeps the disk small.
   */
  clearTmp(): void {
    spawnSync('sh', ['-c', `rm -rf ${this.root}/tmp/* ${this.root}/tmp/.[!.]* 2>/dev/null; true`]);
  }

  remove(): void {
    rmSync(this.base, { recursive: true, force: true });
  }
}
