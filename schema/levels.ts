// The one level catalogue: which targets exist, which levels each has, and what each level asks.
// The worker (refusing a run a target cannot play), the proxy (goals), the web form and the range
// all read it here; nothing else keeps a copy.
import { z } from 'zod';

/** The wargames a run can play: the local practice range or the real OverTheWire Bandit. */
export const targetSchema = z.enum(['practice', 'bandit']);
export type Target = z.infer<typeof targetSchema>;

/** One level: logged in as bandit<level>, find the password of bandit<level+1>. */
export type LevelInfo = {
  level: number;
  goal: string;
  commands: string[];
  /** false when the range only approximates the real level; `note` says how. */
  faithful: boolean;
  note?: string;
};

/** Levels that need a server, a schedule or a terminal are not in the differential comparison yet. */
const UNCOMPARED =
  'Not in the differential comparison with the Debian tools yet; test/practice/levels-late.test.ts plays it over SSH.';
const CRON_NOTE =
  "The differential test compares reading the cron files and scripts; the jobs run in the range's own cron, every minute by default.";
const GIT_NOTE =
  'git is isomorphic-git with the subcommands the levels use (docs/practice-range.md lists them); clones work from inside the range, not from a git client outside it.';

/** The levels the practice range serves, 0 upwards without gaps. */
export const PRACTICE_LEVELS: readonly LevelInfo[] = [
  {
    level: 0,
    goal: 'The password for the next level is in a file called readme in your home directory.',
    commands: ['ls', 'cat'],
    faithful: true,
  },
  {
    level: 1,
    goal: 'The password is in a file called - in the home directory.',
    commands: ['ls', 'cat'],
    faithful: true,
  },
  {
    level: 2,
    goal: 'The password is in a file called "spaces in this filename" in the home directory.',
    commands: ['ls', 'cat'],
    faithful: true,
  },
  {
    level: 3,
    goal: 'The password is in a hidden file in the inhere directory.',
    commands: ['ls -a', 'cd', 'cat'],
    faithful: true,
  },
  {
    level: 4,
    goal: 'The password is in the only human-readable file in the inhere directory.',
    commands: ['ls', 'file', 'cat'],
    faithful: true,
  },
  {
    level: 5,
    goal: 'The password is in a file somewhere under inhere that is human-readable, 1033 bytes in size, and not executable.',
    commands: ['find', 'file', 'du', 'cat'],
    faithful: true,
  },
  {
    level: 6,
    goal: 'The password is stored somewhere on the server in a file owned by user bandit7, owned by group bandit6, and 33 bytes in size.',
    commands: ['find', 'cat'],
    faithful: true,
  },
  {
    level: 7,
    goal: 'The password is in data.txt, next to the word millionth.',
    commands: ['grep', 'cat'],
    faithful: true,
  },
  {
    level: 8,
    goal: 'The password is in data.txt and is the only line that occurs exactly once.',
    commands: ['sort', 'uniq'],
    faithful: true,
  },
  {
    level: 9,
    goal: 'The password is in data.txt, in one of the few human-readable strings, after several "=" characters.',
    commands: ['strings', 'grep -a'],
    faithful: true,
  },
  {
    level: 10,
    goal: 'The password is in data.txt, which holds base64-encoded data.',
    commands: ['base64 -d'],
    faithful: true,
  },
  {
    level: 11,
    goal: 'The password is in data.txt, where every letter has been rotated by 13 positions.',
    commands: ['tr'],
    faithful: true,
  },
  {
    level: 12,
    goal: 'The password is in data.txt, a hexdump of a file that was compressed several times. Work on a copy in a directory you make with mktemp -d.',
    commands: ['mktemp', 'xxd -r', 'file', 'gzip -d', 'bzip2 -d', 'tar xf', 'mv'],
    faithful: true,
  },
  {
    level: 13,
    goal: 'The password for the next level is in /etc/bandit_pass/bandit14 and only bandit14 can read it. You get a private SSH key that logs in as bandit14 instead of a password.',
    commands: ['ssh -i', 'cat'],
    faithful: true,
  },
  {
    level: 14,
    goal: 'Submit the password of the current level to port 30000 on localhost to get the next one.',
    commands: ['nc', 'cat'],
    faithful: true,
  },
  {
    level: 15,
    goal: 'Submit the password of the current level to port 30001 on localhost, using SSL/TLS, to get the next one.',
    commands: ['openssl s_client', 'ncat --ssl'],
    faithful: true,
    note: 'The TLS handshake is emulated: s_client prints a certificate summary, no real TLS runs inside the sandbox.',
  },
  {
    level: 16,
    goal: 'Submit the current password to a port between 31000 and 32000 on localhost. Find which ports listen, which speak SSL/TLS, and which one gives credentials rather than an echo.',
    commands: ['nmap', 'openssl s_client', 'nc'],
    faithful: true,
    note: 'The scan and the TLS handshakes are emulated inside the sandbox.',
  },
  {
    level: 17,
    goal: 'There are two files in the home directory, passwords.old and passwords.new. The password is the one line that changed between them.',
    commands: ['diff', 'grep'],
    faithful: true,
  },
  {
    level: 18,
    goal: 'The password is in a file readme in the home directory. Someone changed .bashrc to log you out when you log in with SSH.',
    commands: ['ssh user@host command'],
    faithful: true,
  },
  {
    level: 19,
    goal: 'To reach the next level, use the setuid binary in the home directory. Run it without arguments to learn how.',
    commands: ['./bandit20-do', 'id'],
    faithful: true,
    note: "The helper is an ELF image that Debian's file(1) describes as the real one; the range runs it by name, its code never runs.",
  },
  {
    level: 20,
    goal: 'A setuid binary in the home directory connects to localhost on the port you give it, reads a line, and if it is the current password, sends back the next one.',
    commands: ['nc -l', 'echo', '&', './suconnect'],
    faithful: false,
    note: 'There are no real background processes in the sandbox: "nc -l PORT" arms a listener for the next ./suconnect, and the reply appears in suconnect\'s output.',
  },
  {
    level: 21,
    goal: 'A program runs automatically at regular intervals from cron, the time-based job scheduler. Look in /etc/cron.d/ for the configuration and see what command is being executed.',
    commands: ['ls /etc/cron.d', 'cat'],
    faithful: true,
    note: CRON_NOTE,
  },
  {
    level: 22,
    goal: 'A program runs automatically from cron. Look in /etc/cron.d/ and read the script it runs; it writes the password to a file whose name it computes.',
    commands: ['cat', 'md5sum', 'cut'],
    faithful: true,
    note: CRON_NOTE,
  },
  {
    level: 23,
    goal: 'A program runs automatically from cron and executes the scripts placed in a directory. Write your own script that copies the password somewhere you can read it.',
    commands: ['cat', 'mktemp -d', 'chmod', 'printf'],
    faithful: true,
    note: `${CRON_NOTE} Only "@reboot" and "* * * * *" schedules run.`,
  },
  {
    level: 24,
    goal: 'A daemon listens on port 30002 and gives the password for bandit25 if given the password for bandit24 and a secret numeric 4-digit pincode. Brute-force the pincode.',
    commands: ['for … in {0000..9999}', 'nc'],
    faithful: false,
    note: `${UNCOMPARED} The daemon reads the whole of what nc sends, then answers line by line.`,
  },
  {
    level: 25,
    goal: 'Logging in to bandit26 from bandit25 should be fairly easy, but the shell for user bandit26 is not /bin/bash. Find out what it is, how it works and how to break out of it.',
    commands: ['ssh -i', 'cat /etc/passwd', 'more', 'v', ':e', ':set shell', ':shell'],
    faithful: false,
    note: "more and vi are the range's own, minimal ones: paging, v, and in vi :e, :r, :set shell, :shell, :! and :q.",
  },
  {
    level: 26,
    goal: 'Good job getting a shell! Now hurry and grab the password for bandit27: use the setuid binary in the home directory.',
    commands: ['./bandit27-do', 'cat'],
    faithful: false,
    note: `${UNCOMPARED} The helper is the same kind of ELF image as on level 19.`,
  },
  {
    level: 27,
    goal: 'There is a git repository at ssh://bandit27-git@localhost/home/bandit27-git/repo via port 2220. The password for bandit27-git is the same as for bandit27. Clone it and find the password.',
    commands: ['mktemp -d', 'git clone', 'cat'],
    faithful: false,
    note: GIT_NOTE,
  },
  {
    level: 28,
    goal: 'There is a git repository at ssh://bandit28-git@localhost/home/bandit28-git/repo via port 2220. Clone it; the password was there once.',
    commands: ['git clone', 'git log -p', 'git show'],
    faithful: false,
    note: GIT_NOTE,
  },
  {
    level: 29,
    goal: 'There is a git repository at ssh://bandit29-git@localhost/home/bandit29-git/repo via port 2220. Clone it; there are no passwords in production.',
    commands: ['git clone', 'git branch -a', 'git checkout'],
    faithful: false,
    note: GIT_NOTE,
  },
  {
    level: 30,
    goal: 'There is a git repository at ssh://bandit30-git@localhost/home/bandit30-git/repo via port 2220. Clone it and find what is hidden in it.',
    commands: ['git clone', 'git tag', 'git show'],
    faithful: false,
    note: GIT_NOTE,
  },
  {
    level: 31,
    goal: 'There is a git repository at ssh://bandit31-git@localhost/home/bandit31-git/repo via port 2220. Clone it and do what its README asks.',
    commands: ['git clone', 'git add -f', 'git commit', 'git push'],
    faithful: false,
    note: GIT_NOTE,
  },
  {
    level: 32,
    goal: 'After all this git stuff, it is time for another escape. Good luck!',
    commands: ['$0', 'cat'],
    faithful: false,
    note: 'The uppercase shell answers "sh: 1: LS: Permission denied" for commands it cannot run; $0 starts a plain shell running as bandit33.',
  },
];

/** What bandit33's login finds: the game's end. Paraphrased from overthewire.org/wargames/bandit. */
const FINAL_NOTES: Readonly<Record<number, string>> = {
  33: 'There is no level 34 yet; reaching bandit33 finishes the game. Its home holds the closing note.',
};

/** A target as a run sees it: its name, and the levels a run can play there. */
export type TargetLevels = {
  name: Target;
  title: string;
  /** The highest level a run can play: the last one whose next password exists. */
  lastLevel: number;
};

/** Every target and its playable levels (0 … lastLevel). */
export const TARGET_LEVELS: Readonly<Record<Target, TargetLevels>> = {
  practice: { name: 'practice', title: 'Practice range (local)', lastLevel: PRACTICE_LEVELS.length - 1 },
  // Bandit's level 33 is the end; there is no bandit34 password to find.
  bandit: { name: 'bandit', title: 'OverTheWire Bandit', lastLevel: 32 },
};

/** The highest level number any target can be asked to play. */
export const MAX_LEVEL = Math.max(...Object.values(TARGET_LEVELS).map((t) => t.lastLevel));

/** Why a target cannot play startLevel…endLevel, naming what it has; null when it can. */
export function levelRangeProblem(target: Target, startLevel: number, endLevel: number): string | null {
  const { lastLevel, name } = TARGET_LEVELS[target];
  if (startLevel <= lastLevel && endLevel <= lastLevel) return null;
  return `${name} has levels 0-${lastLevel}; ${startLevel}-${endLevel} is outside them`;
}

/** Level N's task on a target, in words. */
export function levelGoal(target: Target, level: number): string {
  const shared = PRACTICE_LEVELS.find((l) => l.level === level)?.goal;
  if (target === 'practice') return shared ?? `Level ${level} is not part of the practice range.`;
  return shared ?? FINAL_NOTES[level] ?? `Level ${level} has no known goal.`;
}
