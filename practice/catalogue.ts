// The practice range's levels: what each asks, which commands help, and whether the range plays it
// the way the real Bandit does. Shared with the SSH proxy's target definition.
/** One level: logged in as bandit<level>, find the password of bandit<level+1>. */
export type LevelInfo = {
  level: number;
  goal: string;
  commands: string[];
  /** false when the range only approximates the real level; `note` says how. */
  faithful: boolean;
  note?: string;
};

export const PRACTICE_LEVELS: readonly LevelInfo[] = [
  { level: 0, goal: 'The password for the next level is in a file called readme in your home directory.', commands: ['ls', 'cat'], faithful: true },
  { level: 1, goal: 'The password is in a file called - in the home directory.', commands: ['ls', 'cat'], faithful: true },
  { level: 2, goal: 'The password is in a file called "spaces in this filename" in the home directory.', commands: ['ls', 'cat'], faithful: true },
  { level: 3, goal: 'The password is in a hidden file in the inhere directory.', commands: ['ls -a', 'cd', 'cat'], faithful: true },
  { level: 4, goal: 'The password is in the only human-readable file in the inhere directory.', commands: ['ls', 'file', 'cat'], faithful: true },
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
  { level: 7, goal: 'The password is in data.txt, next to the word millionth.', commands: ['grep', 'cat'], faithful: true },
  { level: 8, goal: 'The password is in data.txt and is the only line that occurs exactly once.', commands: ['sort', 'uniq'], faithful: true },
  {
    level: 9,
    goal: 'The password is in data.txt, in one of the few human-readable strings, after several "=" characters.',
    commands: ['strings', 'grep -a'],
    faithful: true,
  },
  { level: 10, goal: 'The password is in data.txt, which holds base64-encoded data.', commands: ['base64 -d'], faithful: true },
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
  },
  {
    level: 20,
    goal: 'A setuid binary in the home directory connects to localhost on the port you give it, reads a line, and if it is the current password, sends back the next one.',
    commands: ['nc -l', 'echo', '&', './suconnect'],
    faithful: false,
    note: 'There are no real background processes in the sandbox: "nc -l PORT" arms a listener for the next ./suconnect, and the reply appears in suconnect\'s output.',
  },
];
