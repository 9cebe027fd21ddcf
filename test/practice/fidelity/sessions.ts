// The differential corpus beyond one command line: what a terminal shows when a line writes to both
// streams (compared in the order the output arrives), sequences of logins in the one shared world
// (write, log out, log in, read; a script left for cron, its result picked up later), and waits.

/**
 * One step of a session: a login that runs one command line and logs out, or a wait for the
 * bandit24 cron job (the range's daemon, polled with `until` as `user` until it answers 0; on the
 * real side, the job's own script run by real bash as bandit24).
 */
export type SessionStep = { user: string; command: string } | { cron: 'bandit24'; user: string; until: string };

const PASSWORD_FILE = 'printf \'#!/bin/sh\\necho %s\\n\' "$(cat /etc/bandit_pass/bandit27)" > ask; chmod +x ask';
const ASKPASS = `d=$(mktemp -d); cd $d; ${PASSWORD_FILE}; export SSH_ASKPASS=$d/ask SSH_ASKPASS_REQUIRE=force`;
const REPO = 'ssh://bandit27-git@localhost:2220/home/bandit27-git/repo';

/**
 * [user, command]: lines compared as a terminal shows them, stdout and stderr merged in the order
 * they were written (over SSH, the order the two streams arrive; on the real side, `2>&1`).
 */
export const IN_ORDER: [string, string][] = [
  ['bandit0', 'cat missing; echo hi; ls missing; echo $?'],
  ['bandit0', 'echo a; echo b >&2; echo c'],
  ['bandit0', 'for f in readme missing; do cat $f; done; echo $?'],
  ['bandit0', '{ echo a; ls nope; echo c; } 2>&1; echo $?'],
  ['bandit0', 'ls missing || echo fallback'],
  ['bandit0', 'grep -c bandit /etc/passwd missing; echo $?'],
  ['bandit0', 'cat readme missing readme'],
  // Where the player sends the streams: a group, exec, |&, >&2, a function, a pipe.
  ['bandit0', '{ ls nope; echo x; } 2>/dev/null; echo $?'],
  ['bandit0', 'exec 2>/dev/null; ls nope; echo e'],
  ['bandit0', 'ls nope |& cat; echo g'],
  ['bandit0', 'for i in 1 2; do echo $i; ls nope$i; done 2>&1 >/dev/null'],
  ['bandit0', 'echo x >&2; echo y 1>&2; echo z'],
  ['bandit0', 'f() { echo in; ls x; }; f; echo out'],
  ['bandit0', 'ls nope | wc -l; echo done'],
  ['bandit0', '{ echo a; ls nope; echo c; } 2>&1 | cat'],
  // Real git cloning over its own ssh transport (a loopback stand-in for sshd on the real side).
  ['bandit27', `${ASKPASS}; git clone ${REPO} && echo done`],
  ['bandit27', `${ASKPASS}; git clone ${REPO} >/dev/null && echo cloned; git clone ${REPO}; echo $?`],
  ['bandit27', `${ASKPASS}; git clone -q ${REPO}; cd repo && git log --oneline && cat README`],
];

/** Waits within the limits: the range's sleep and timeout wait as long as the real ones. */
export const WAITS: [string, string][] = [
  ['bandit0', 's=$(date +%s); sleep 2; echo $(( $(date +%s) - s >= 2 ))'],
  ['bandit0', 'timeout 1 sleep 2; echo $?'],
];

/** Sequences of logins, each a separate connection on the range and a separate bash on the real side. */
export const SESSIONS: SessionStep[][] = [
  // What one login writes, the next login reads (as on the real server, and unlike a private copy).
  [
    { user: 'bandit0', command: 'mkdir /tmp/fid-s1 && echo kept > /tmp/fid-s1/note && chmod 600 /tmp/fid-s1/note' },
    { user: 'bandit0', command: 'cat /tmp/fid-s1/note; stat -c "%a %U %s" /tmp/fid-s1/note /tmp/fid-s1' },
  ],
  // Another user reads what the mode lets them, and only the owner removes a file in sticky /tmp.
  [
    {
      user: 'bandit1',
      command:
        'echo open > /tmp/fid-s2-open; chmod 644 /tmp/fid-s2-open; echo shut > /tmp/fid-s2-shut; chmod 600 /tmp/fid-s2-shut',
    },
    {
      user: 'bandit2',
      command: 'cat /tmp/fid-s2-open; cat /tmp/fid-s2-shut; echo $?; rm -f /tmp/fid-s2-open; echo $?',
    },
    { user: 'bandit1', command: 'cat /tmp/fid-s2-open /tmp/fid-s2-shut' },
  ],
  // The shell's own state does not survive a logout: the directory and the variables.
  [
    { user: 'bandit0', command: 'cd /tmp; export FID=set; pwd' },
    { user: 'bandit0', command: 'pwd; echo "[$FID]"' },
  ],
  // A wait within one login, then the file it waited for in the next.
  [
    { user: 'bandit0', command: 'd=/tmp/fid-s4; mkdir $d; (sleep 1; echo late > $d/f); cat $d/f' },
    { user: 'bandit0', command: 'cat /tmp/fid-s4/f; ls /tmp/fid-s4' },
  ],
  // The 23→24 walkthrough: a script left in the spool, run by cron as bandit24, its result read later.
  [
    {
      user: 'bandit23',
      command:
        "mkdir /tmp/fid-c && chmod 777 /tmp/fid-c && printf '#!/bin/bash\\ncat /etc/bandit_pass/bandit24 > /tmp/fid-c/pass\\n' > /var/spool/bandit24/foo/fid-c.sh && chmod 777 /var/spool/bandit24/foo/fid-c.sh && echo planted",
    },
    { cron: 'bandit24', user: 'bandit23', until: '! test -e /var/spool/bandit24/foo/fid-c.sh' },
    { user: 'bandit23', command: 'cat /tmp/fid-c/pass; ls /var/spool/bandit24/foo/fid-c.sh; echo $?' },
  ],
];

/** How a session reads in the report: each login's user and command line, in order. */
export function describeSession(steps: SessionStep[]): string {
  return steps
    .map((step) => ('cron' in step ? '(cron runs as bandit24)' : `${step.user}: ${step.command}`))
    .join(' ⏎ log out, log in ⏎ ');
}
