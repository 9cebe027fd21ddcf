// The command lines of the differential test: what Bandit players type, level by level (the usual
// solutions), and the same tools with their common flags over the files of every level; then output
// in order, waits and sessions of several logins (sessions.ts).
import { IN_ORDER, SESSIONS, WAITS, describeSession } from './sessions.ts';
import type { SessionStep } from './sessions.ts';

/**
 * One command line, run as `user` in their home directory. `level` marks a usual solution.
 * `find` and `du -a` print in the order the filesystem returns entries (on a real disk, its hash
 * order), which no copy of the world can reproduce: their lines are compared sorted. `merged`
 * compares stdout and stderr together, in the order they were written. `steps` makes the entry a
 * session of several logins (`command` then only describes it).
 */
export type CorpusLine = {
  user: string;
  command: string;
  level?: number;
  unordered?: boolean;
  merged?: boolean;
  steps?: SessionStep[];
  /** Which part of the corpus the entry belongs to, for the report's figures. */
  part?: 'in order' | 'wait' | 'session';
};

/** The usual walkthrough solutions, per level, where the real tools can run them offline. */
const SOLUTIONS: Record<number, string[]> = {
  0: ['ls', 'ls -la', 'cat readme'],
  1: ['ls -l', 'cat ./-', 'cat < -', 'cat -- -'],
  2: ['cat "spaces in this filename"', 'cat spaces\\ in\\ this\\ filename', "cat 'spaces in this filename'"],
  3: ['ls -la inhere', 'ls -a inhere', 'cat inhere/...Hiding-From-You', 'find inhere -type f'],
  4: [
    'file inhere/*',
    'file ./inhere/-file0*',
    'cd inhere && file ./*',
    'file inhere/* | grep text',
    'cat "$(file inhere/* | grep text | cut -d: -f1)"',
  ],
  5: [
    'find inhere -type f -size 1033c ! -executable',
    'find . -type f -size 1033c ! -executable -exec file {} +',
    'find inhere -size 1033c',
    'find inhere -type f -size 1033c ! -executable -exec cat {} \\;',
    'du -b -a inhere | grep 1033',
  ],
  6: [
    'find / -user bandit7 -group bandit6 -size 33c 2>/dev/null',
    'find / -user bandit7 -group bandit6 -size 33c 2>/dev/null | xargs cat',
  ],
  7: [
    'grep millionth data.txt',
    'cat data.txt | grep millionth',
    "awk '/millionth/ {print $2}' data.txt",
    'grep -w millionth data.txt',
  ],
  8: ['sort data.txt | uniq -u', 'sort data.txt | uniq -c | sort -n | head -1', 'sort data.txt | uniq -c | grep " 1 "'],
  9: ['strings data.txt | grep ==', 'strings data.txt | grep "==="', 'strings -n 10 data.txt'],
  10: ['base64 -d data.txt', 'cat data.txt | base64 --decode', 'base64 --decode data.txt'],
  11: ["cat data.txt | tr 'A-Za-z' 'N-ZA-Mn-za-m'", "tr 'a-zA-Z' 'n-za-mN-ZA-M' < data.txt"],
  12: [
    'head -3 data.txt',
    'd=$(mktemp -d) && xxd -r data.txt > $d/data && file -b $d/data',
    'd=$(mktemp -d) && xxd -r data.txt $d/data && cd $d && mv data data.gz && gzip -d data.gz && file -b data && bzip2 -d data && file -b data.out',
    'd=$(mktemp -d) && xxd -r data.txt | gzip -dc | bzip2 -dc | file -',
    'd=$(mktemp -d) && xxd -r data.txt | gzip -dc | bzip2 -dc | tar xO | bzip2 -dc | tar xO | gzip -dc | cat',
  ],
  13: ['ls -l sshkey.private', 'head -1 sshkey.private', 'file sshkey.private'],
  17: [
    'diff passwords.old passwords.new',
    'diff passwords.new passwords.old',
    'diff -u passwords.old passwords.new | tail -n +3',
    'diff -q passwords.old passwords.new',
    'diff --suppress-common-lines -y passwords.old passwords.new',
  ],
  18: ['cat readme', 'ls -la'],
  19: ['ls -l', 'file bandit20-do'],
  21: ['ls /etc/cron.d', 'cat /etc/cron.d/cronjob_bandit22', 'cat /usr/bin/cronjob_bandit22.sh'],
  22: [
    'cat /etc/cron.d/cronjob_bandit23',
    'cat /usr/bin/cronjob_bandit23.sh',
    "echo I am user bandit23 | md5sum | cut -d ' ' -f 1",
  ],
  23: ['cat /etc/cron.d/cronjob_bandit24', 'cat /usr/bin/cronjob_bandit24.sh', 'ls -ld /var/spool/bandit24/foo'],
};

/** Files of each level, to run the general tools over. */
const FILES: [string, string][] = [
  ['bandit0', 'readme'],
  ['bandit1', './-'],
  ['bandit2', '"spaces in this filename"'],
  ['bandit7', 'data.txt'],
  ['bandit8', 'data.txt'],
  ['bandit9', 'data.txt'],
  ['bandit10', 'data.txt'],
  ['bandit11', 'data.txt'],
  ['bandit12', 'data.txt'],
  ['bandit13', 'sshkey.private'],
  ['bandit17', 'passwords.old'],
  ['bandit18', 'readme'],
];

/** Tools and flags players use on a file. `{}` is the file. */
const FILE_TOOLS = [
  'cat {}',
  'cat -n {} | head -5',
  'head {}',
  'head -n 3 {}',
  'head -c 20 {}',
  'tail -n 2 {}',
  'tail -c 33 {}',
  'wc {}',
  'wc -l {}',
  'wc -c {}',
  'wc -w {}',
  'file {}',
  'file -b {}',
  'du -b {}',
  'du {}',
  'stat -c "%s %a %U %G %F" {}',
  'ls -l {}',
  'ls -lh {}',
  'ls -la {}',
  'md5sum {}',
  'sha256sum {}',
  'sort {} | head -3',
  'sort -r {} | head -3',
  'sort -u {} | wc -l',
  'uniq -c {} | head -3',
  'strings {} | head -5',
  'strings -n 8 {} | wc -l',
  'base64 {} | head -2',
  'xxd {} | head -3',
  'xxd -p {} | head -2',
  'grep -c a {}',
  'grep -n e {} | head -3',
  'grep -v e {} | head -3',
  'grep -i THE {}',
  'grep -o "[0-9]\\+" {} | head -3',
  "tr 'a-z' 'A-Z' < {} | head -3",
  'cut -c 1-10 {} | head -3',
  'rev {} | head -2',
];

/** Commands about directories and the system, run as bandit0. */
const GENERAL = [
  'pwd',
  'whoami',
  'id',
  'echo $HOME',
  'ls /home',
  'ls -d /home/bandit*',
  'ls -ld /etc/bandit_pass',
  'ls -l /etc/bandit_pass',
  'cat /etc/bandit_pass/bandit0',
  'cat /etc/bandit_pass/bandit1; echo $?',
  'ls /root; echo $?',
  'ls -la /home/bandit5/inhere; echo $?',
  'find /home/bandit3 -type f',
  'find /home/bandit3 -name ".*"',
  'find /home/bandit4 -type d',
  'find /home/bandit4 -type f | sort',
  'find /home/bandit5 -maxdepth 1',
  'find /etc/bandit_pass -readable',
  'find /etc/bandit_pass -user bandit0',
  'find /home/bandit0 -perm -o=r',
  'find /home -maxdepth 1 -type d | sort',
  'du -sb /home/bandit4/inhere',
  'du -a /home/bandit3',
  'stat -c %a /tmp',
  'stat -c "%U %G" /etc/bandit_pass/bandit0',
  'wc -l /etc/passwd',
  'grep bandit1: /etc/passwd',
  'cut -d: -f1 /etc/passwd | head -3',
  'echo hello | base64',
  'echo aGVsbG8K | base64 -d',
  'echo hello | xxd',
  'echo hello | xxd -p',
  'echo 68656c6c6f0a | xxd -r -p',
  'echo hello | tr a-z A-Z',
  'echo hello | rev',
  'echo hello | wc -c',
  'printf "b\\na\\nb\\n" | sort',
  'printf "b\\na\\nb\\n" | sort -u',
  'printf "b\\na\\nb\\n" | sort | uniq -c',
  'printf "b\\na\\nb\\n" | sort | uniq -d',
  'printf "3\\n10\\n2\\n" | sort -n',
  'printf "3\\n10\\n2\\n" | sort',
  'echo hello | gzip | gzip -d',
  'echo hello | bzip2 | bzip2 -d',
  'echo hello | gzip | file -',
  'echo hello | bzip2 | file -',
  'seq 1 5 | tail -2',
  'seq 1 100000 | wc -l',
  'echo $((6*7))',
  'd=$(mktemp -d) && cd $d && echo hi > f && tar cf a.tar f && file -b a.tar && tar tf a.tar',
  'd=$(mktemp -d) && cd $d && echo hi > f && gzip f && ls && gunzip f.gz && cat f',
  'd=$(mktemp -d) && cd $d && echo hi > f && bzip2 f && ls && bunzip2 f.bz2 && cat f',
  'd=$(mktemp -d) && cd $d && echo hi > f && cp f g && mv g h && ls && cat h',
  'd=$(mktemp -d) && cd $d && mkdir -p a/b && touch a/b/c && find . | sort',
  'd=$(mktemp -d) && ls -ld $d | cut -c 1-10',
  'echo x > /etc/nope; echo $?',
  'cat missing; echo $?',
  'ls missing; echo $?',
  'file missing; echo $?',
  'grep x missing; echo $?',
  'head -n 1 /etc/passwd /etc/hostname',
  'cat /etc/hostname',
  'echo $SHELL',
  'diff <(echo a) <(echo b); echo $?',
];

/** [user, command]: grep as players write it (GNU's basic patterns, -E, context, recursion, binary files), and more. */
const BY_USER: [string, string][] = [
  ...[
    'grep -o "[0-9]\\+" /etc/passwd | head -3',
    'grep -w bandit /etc/passwd | head -2',
    'grep -x "bandit1.*" /etc/passwd',
    'grep -C1 -n bandit5 /etc/passwd',
    'grep -A1 -B1 -e bandit3 -e bandit7 /etc/passwd',
    'grep -rl bandit /etc 2>/dev/null | sort',
    'grep -c bandit /etc/passwd /etc/group',
    'grep -vc x /etc/passwd',
    'grep "\\(bandit\\)1\\{1,2\\}" /etc/passwd',
    'grep -E "^(root|bandit1):" /etc/passwd',
    'grep "[[:digit:]]\\{5\\}" /etc/passwd | head -2',
    'grep -i ROOT /etc/passwd',
    'grep -q root /etc/passwd; echo $?',
    'grep "a\\|" /etc/hostname',
    'grep -h x /etc/passwd /etc/group | head -2',
    'egrep "root|bandit33" /etc/passwd',
    'grep -r bandit22 /etc/cron.d',
    'cd /etc; grep -r bandit24 cron.d',
    'cd /etc/cron.d; grep -r bandit24',
    'grep -n "" /etc/hostname /etc/motd | head -3',
    'grep "^\\*" /etc/passwd; echo $?',
    'grep "a**" /etc/hostname',
    'grep "[" /etc/hostname; echo $?',
    'grep -E "(" /etc/hostname; echo $?',
    'grep -f /dev/null /etc/passwd; echo $?',
    'grep -ob root /etc/passwd',
    'grep -m2 bandit /etc/passwd',
    'grep bandit /etc; echo $?',
    'grep -s x missing; echo $?',
    'grep -E "ra+c|x?y" /etc/hostname',
    'grep "\\<prac" /etc/hostname',
    'grep -w prac /etc/hostname; echo $?',
    'grep -F "a.c" /etc/hostname; echo $?',
    'grep bandit26 /etc/passwd | cut -d: -f7',
    'grep -o "[[:alpha:]]*" /etc/hostname',
    'grep -l root /etc/passwd /etc/group /etc/hostname',
    'grep -L root /etc/passwd /etc/hostname',
  ].map((command): [string, string] => ['bandit0', command]),
  ...[
    'grep -c "" data.txt',
    'grep -ac "" data.txt',
    'grep -a -c === data.txt',
    'grep -q the data.txt; echo $?',
    'grep -l the data.txt',
    'grep -a "=== the" data.txt | wc -l',
  ].map((command): [string, string] => ['bandit9', command]),
  ['bandit5', 'ls -la inhere/maybehere07'],
  ['bandit17', 'diff -y passwords.old passwords.new | head -3'],
  ['bandit17', 'diff -y -W 60 passwords.old passwords.new | grep "|"'],
  ['bandit17', 'diff -uy passwords.old passwords.new; echo $?'],
  [
    'bandit0',
    'd=$(mktemp -d); cd $d; printf "a\\tb\\nsame\\nx\\ny\\n" > 1; printf "a\\tc\\nsame\\nz\\n" > 2; diff -y 1 2; diff -y -t 1 2; diff -y --left-column 1 2; diff -y 2 1; diff -y -W 20 1 2',
  ],
  ['bandit19', 'file -b bandit20-do'],
  ['bandit19', 'd=$(mktemp -d) && cp bandit20-do $d/x && file $d/x | cut -d: -f2 && ls -l $d/x | cut -c1-10'],
  ['bandit0', 'file /tmp /etc/passwd'],
  ['bandit20', 'file suconnect'],
  ...[
    'sort -t: -k3 -n /etc/passwd | head -4',
    'sort -t: -k3,3nr /etc/passwd | head -3',
    'sort -k2 /etc/passwd | head -3',
    'printf "10K\\n2M\\n5\\n1.5K\\n" | sort -h',
    'printf "v1.10\\nv1.9\\nv1.9a\\nfoo.tar.gz\\nfoo-1.2.tar.gz\\n" | sort -V',
    'printf " b\\na\\nB\\n_\\n" | sort -f',
    'printf "b\\na\\n" | sort -c; echo $?',
    'printf "a b\\na  c\\n a d\\n" | sort -k2',
    'printf "a b\\na  c\\n a d\\n" | sort -b -k2',
    'printf "x\\nx\\ny\\nX\\n" | sort -u',
    'printf "x\\nx\\ny\\nX\\n" | sort -fu',
    'printf "3 a\\n1 b\\n3 a\\n2 c\\n" | sort -nu',
    'printf "MAR\\nfeb\\nxxx\\n" | sort -M',
    'printf "1e3\\nabc\\n2\\n" | sort -g',
    'printf "a\\nb" | sort -r',
    'sort missing; echo $?',
    'printf "b,2\\na,10\\n" | sort -t, -k2n',
    'd=$(mktemp -d); printf "b\\na\\n" > $d/f; sort -o $d/f $d/f; cat $d/f',
    'printf "a\\tb\\nA\\tc\\n" | sort -s -f -k1,1',
    'printf "c\\n-1\\n-10\\n0\\n.5\\n" | sort -n',
    'printf "b 2\\na 2\\nc 1\\n" | sort -k2,2 -k1r',
    'printf "ab\\naB\\n" | sort -k1.2',
  ].map((command): [string, string] => ['bandit0', command]),
  ...[
    'wc -m data.txt; wc -L data.txt; wc -lwmcL data.txt',
    'rev data.txt > /dev/null; echo $?',
    "tr -d '\\000-\\037' < data.txt | wc -c",
    'tr -cd "[:print:]\\n" < data.txt | head -c 40',
    'cut -b 5-8 data.txt | xxd | head -2',
  ].map((command): [string, string] => ['bandit9', command]),
  ...[
    'echo x | tr; echo $?',
    'echo x | tr a; echo $?',
    'echo x | tr z-a b; echo $?',
    'echo hello | tr -d l; echo hello | tr -s l; echo hello | tr -cd "a-z\\n"; echo hello | tr a-y b-z; echo "a  b" | tr -s " " "_"',
    'echo abc | tr "[:lower:]" "[:upper:]"; echo abc | tr -t abc x; echo abc | tr abc "x[y*]"; echo 123 | tr 0-9 "\\101-\\112"',
    'cut -d: -f1,3 /etc/passwd | head -2; cut -d: -f2- --output-delimiter=@ /etc/passwd | head -1; echo abcdef | cut -c2-4,6; echo abcdef | cut -b -2 --complement',
    'printf "a b\\nno\\n" | cut -d" " -f2 -s; echo abcdef | cut -b1,3-4 --output-delimiter=:',
    'cut -f0 /etc/passwd; echo $?; cut /etc/passwd; echo $?; echo abc | cut -c 3-1; echo $?; cut -d ab -f1 /etc/passwd; echo $?',
    'echo hello | rev; printf "ab\\ncd" | rev',
    'wc /etc/passwd /etc/group; echo a b | wc; echo a b | wc -w; wc -lc /etc/passwd',
    'wc missing; echo $?; wc -w /etc/passwd missing',
    'find /home/bandit19 -perm -u=s',
    'find /home/bandit19 -perm /4000',
    'find /etc/bandit_pass -perm -g+r,u+r | sort | head -3',
    'find /home/bandit0 -perm -o=q; echo $?',
    'echo hello | gzip -9 | file -',
    'echo hello | gzip -1 | file -',
  ].map((command): [string, string] => ['bandit0', command]),
  ['bandit33', 'ls'],
  ['bandit33', 'cat README.txt'],
];

export function corpus(): CorpusLine[] {
  const lines: CorpusLine[] = [];
  for (const [level, commands] of Object.entries(SOLUTIONS)) {
    for (const command of commands) lines.push({ user: `bandit${level}`, command, level: Number(level) });
  }
  for (const [user, file] of FILES)
    for (const tool of FILE_TOOLS) lines.push({ user, command: tool.replaceAll('{}', file) });
  for (const command of GENERAL) lines.push({ user: 'bandit0', command });
  for (const [user, command] of BY_USER) lines.push({ user, command });
  for (const [user, command] of IN_ORDER) lines.push({ user, command, merged: true, part: 'in order' });
  for (const [user, command] of WAITS) lines.push({ user, command, part: 'wait' });
  for (const steps of SESSIONS)
    lines.push({ user: steps[0]?.user ?? 'bandit0', command: describeSession(steps), steps, part: 'session' });
  return lines.map((line) => (/^(find |du -b -a|du -a)/.test(line.command) ? { ...line, unordered: true } : line));
}
