// Levels 27→28 … 31→32: a git repository per level, served over SSH as banditN-git (password: bandit
// N's). 27 has the password in its README, 28 in its history, 29 on a branch, 30 behind a tag, and
// 31 asks for a push whose hook answers with it. The repositories are built with isomorphic-git
// when the world is laid out (world-repos.ts); this file says what they hold.
import type { LevelBuilder } from './world.ts';

/** One commit: the files it adds or changes, with their whole new content. */
export type RepoCommit = { message: string; files: Record<string, string> };
/** A branch of commits; branches after the first start at the first branch's last commit. */
export type RepoBranch = { name: string; commits: RepoCommit[] };
/** What the remote says to a push, line by line, and whether it takes it. */
export type PushVerdict = { accepted: boolean; lines: string[] };

export type RepoSpec = {
  /** The git user that owns it, e.g. bandit27-git. */
  user: string;
  /** The bare repository's path, /home/<user>/repo. */
  path: string;
  branches: RepoBranch[];
  /** Lightweight tags that point straight at a blob with this content. */
  blobTags: { name: string; content: string }[];
  /** The pre-receive hook: given the files of the pushed branch's tip. */
  pushHook?: (branch: string, files: Map<string, string>) => PushVerdict;
};

const README_31 =
  "This time your task is to push a file to the remote repository.\n\nDetails:\n    File name: key.txt\n    Content: 'May I come in?'\n    Branch: master\n\n";

const notes = (password: string) =>
  `# Bandit Notes\nSome notes for level29 of bandit.\n\n## credentials\n\n- username: bandit29\n- password: ${password}\n\n`;
const devNotes = (password: string) =>
  `# Bandit Notes\nSome notes for bandit30 of bandit.\n\n## credentials\n\n- username: bandit30\n- password: ${password}\n\n`;

export function buildGitLevels(b: LevelBuilder): void {
  const repo = (n: number, spec: Omit<RepoSpec, 'user' | 'path'>) => {
    const user = `bandit${n}-git`;
    b.dir(`/home/${user}`, 'root', 'root', 0o755);
    b.repo({ user, path: `/home/${user}/repo`, ...spec });
  };

  repo(27, {
    branches: [
      {
        name: 'master',
        commits: [
          {
            message: 'initial commit of README',
            files: { README: `The password to the next level is: ${b.pass(28)}\n` },
          },
        ],
      },
    ],
    blobTags: [],
  });

  repo(28, {
    branches: [
      {
        name: 'master',
        commits: [
          { message: 'initial commit of README.md', files: { 'README.md': notes('<TBD>') } },
          { message: 'add missing data', files: { 'README.md': notes(b.pass(29)) } },
          { message: 'fix info leak', files: { 'README.md': notes('xxxxxxxxxx') } },
        ],
      },
    ],
    blobTags: [],
  });

  repo(29, {
    branches: [
      {
        name: 'master',
        commits: [
          { message: 'initial commit of README.md', files: { 'README.md': devNotes('<no passwords in production!>') } },
        ],
      },
      {
        name: 'dev',
        commits: [
          { message: 'add gif2ascii', files: { 'code/gif2ascii.py': '\n' } },
          { message: 'add data needed for development', files: { 'README.md': devNotes(b.pass(30)) } },
        ],
      },
      {
        name: 'sploits-dev',
        commits: [
          {
            message: 'add some silly exploit, just for shit and giggles',
            files: { 'exploits/horde5.txt': 'Horde 5 remote code execution: left as an exercise.\n' },
          },
        ],
      },
    ],
    blobTags: [],
  });

  repo(30, {
    branches: [
      {
        name: 'master',
        commits: [
          { message: 'initial commit of README.md', files: { 'README.md': 'just an epmty file... muahaha\n' } },
        ],
      },
    ],
    blobTags: [{ name: 'secret', content: `${b.pass(31)}\n` }],
  });

  repo(31, {
    branches: [
      {
        name: 'master',
        commits: [{ message: 'initial commit', files: { 'README.md': README_31, '.gitignore': '*.txt\n' } }],
      },
    ],
    blobTags: [],
    pushHook: (branch, files) => {
      const content = files.get('key.txt');
      const right =
        branch === 'master' && content !== undefined && content.trim().replace(/^'(.*)'$/, '$1') === 'May I come in?';
      const rule = '.oOo.oOo.oOo.oOo.oOo.oOo.oOo.oOo.oOo.oOo.';
      const verdict = right ? ['Well done! Here is the password for the next level:', b.pass(32)] : ['Wrong!'];
      return {
        accepted: false,
        lines: ['### Attempting to validate files... ####', '', rule, '', ...verdict, '', rule, ''],
      };
    },
  });
}
