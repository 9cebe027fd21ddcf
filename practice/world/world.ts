// The range's world, built from a seed: passwords, files with owners and modes, network services
// and key pairs. The same seed gives the same world.
import { LAST_USER, allUsers, loginShell, passwordLevel, uidOf } from './accounts.ts';
import type { KeyPair } from './ssh-key.ts';
import { SeededRandom } from './random.ts';
import { buildBasicLevels } from './levels-files.ts';
import { buildDataLevels } from './levels-data.ts';
import { buildNetworkLevels } from './levels-network.ts';
import { buildSetuidLevels } from './levels-setuid.ts';
import { buildCronLevels } from './levels-cron.ts';
import { buildEscapeLevels } from './levels-escape.ts';
import { buildGitLevels } from './levels-git.ts';
import type { RepoSpec } from './levels-git.ts';

/** When the world's files were last changed, as `ls -l` and `stat` show it: fixed, so that the same
 * seed shows the same listing, and a copy of the world on disk can be compared with the range. */
export const WORLD_MTIME = new Date('2026-04-10T14:23:00Z');

/** A file or directory of the world. `program` names an emulated executable. */
export type WorldNode = {
  path: string;
  kind: 'file' | 'dir';
  content?: string | Uint8Array;
  owner: string;
  group: string;
  mode: number;
  program?: string;
};

/** A TCP service on localhost, reachable with nc or openssl s_client. */
export type Service = { port: number; tls: boolean; answer: (input: string) => string };

export type World = {
  seed: string;
  /** passwords[n] logs in as bandit<n>. */
  passwords: string[];
  nodes: WorldNode[];
  services: Map<number, Service>;
  /** Users that accept public-key login, with the key that opens them. */
  keys: Map<string, KeyPair>;
  /** Git repositories served over SSH (levels 27–31), built when the world is laid out. */
  repos: RepoSpec[];
};

/** What a level builder gets: the random source, the passwords, and ways to add to the world. */
export type LevelBuilder = {
  rng: SeededRandom;
  pass: (user: number) => string;
  file: (
    path: string,
    content: string | Uint8Array,
    owner: string,
    group: string,
    mode: number,
    program?: string,
  ) => void;
  dir: (path: string, owner?: string, group?: string, mode?: number) => void;
  service: (service: Service) => void;
  key: (user: string, pair: KeyPair) => void;
  repo: (spec: RepoSpec) => void;
};

/** The last user of the range's first release: its levels draw from the seed's first random stream. */
const FIRST_RELEASE_LAST_USER = 21;

export function buildWorld(seed: string): World {
  const rng = new SeededRandom(seed);
  // Levels 21 and up draw from a second stream, so that a seed recorded before they existed still
  // builds the same world for levels 0–20 (replay-verify depends on it).
  const later = new SeededRandom(`${seed}#levels-21-33`);
  const passwords = ['bandit0'];
  for (let n = 1; n <= LAST_USER; n++) passwords.push((n <= FIRST_RELEASE_LAST_USER ? rng : later).alnum(32));
  const nodes = new Map<string, WorldNode>();
  const world: World = { seed, passwords, nodes: [], services: new Map(), keys: new Map(), repos: [] };
  const builder: LevelBuilder = {
    rng,
    pass: (n) => passwords[n] ?? '',
    dir: (path, owner = 'root', group = 'root', mode = 0o755) => {
      if (!nodes.has(path)) nodes.set(path, { path, kind: 'dir', owner, group, mode });
    },
    file: (path, content, owner, group, mode, program) => {
      nodes.set(path, { path, kind: 'file', content, owner, group, mode, ...(program ? { program } : {}) });
    },
    service: (s) => world.services.set(s.port, s),
    key: (user, pair) => world.keys.set(user, pair),
    repo: (spec) => world.repos.push(spec),
  };
  buildSystem(builder);
  buildBasicLevels(builder);
  buildDataLevels(builder);
  buildNetworkLevels(builder);
  buildSetuidLevels(builder);
  const laterBuilder = { ...builder, rng: later };
  buildCronLevels(laterBuilder);
  buildEscapeLevels(laterBuilder);
  buildGitLevels(laterBuilder);
  world.nodes = [...nodes.values()];
  return world;
}

/** Directories every Unix host has, the password files, and the users' homes. */
function buildSystem(b: LevelBuilder): void {
  for (const dir of ['/etc', '/home', '/var', '/var/lib', '/var/log', '/usr', '/usr/share', '/usr/local', '/opt'])
    b.dir(dir);
  b.dir('/root', 'root', 'root', 0o700);
  // Like Bandit's /tmp: anyone may create files there, nobody may list it.
  b.dir('/tmp', 'root', 'root', 0o1733);
  b.dir('/etc/bandit_pass', 'root', 'root', 0o755);
  for (let n = 0; n <= LAST_USER; n++) {
    const user = `bandit${n}`;
    b.file(`/etc/bandit_pass/${user}`, `${b.pass(n)}\n`, user, user, 0o400);
    b.dir(`/home/${user}`, 'root', 'root', 0o755);
    b.file(
      `/home/${user}/.bashrc`,
      '# ~/.bashrc: executed by bash for interactive shells.\nalias ll="ls -alF"\n',
      'root',
      'root',
      0o644,
    );
    b.file(`/home/${user}/.profile`, '# ~/.profile: executed by the login shell.\n', 'root', 'root', 0o644);
  }
  b.file('/etc/hostname', 'practice\n', 'root', 'root', 0o644);
  b.file('/etc/passwd', passwdFile(), 'root', 'root', 0o644);
  b.file('/etc/group', groupFile(), 'root', 'root', 0o644);
  b.file(
    '/etc/motd',
    'Welcome to the bandit-runner practice range.\nPasswords live in /etc/bandit_pass; each user can read only their own.\n',
    'root',
    'root',
    0o644,
  );
}

function passwdFile(): string {
  let out = 'root:x:0:0:root:/root:/bin/bash\n';
  for (const user of allUsers()) {
    const uid = uidOf(user);
    const about = user.endsWith('-git')
      ? `bandit level ${passwordLevel(user)} git`
      : `bandit level ${passwordLevel(user)}`;
    out += `${user}:x:${uid}:${uid}:${about}:/home/${user}:${loginShell(user)}\n`;
  }
  return out;
}

function groupFile(): string {
  return `root:x:0:\n${allUsers()
    .map((user) => `${user}:x:${uidOf(user)}:\n`)
    .join('')}`;
}
