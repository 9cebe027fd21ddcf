// Levels 21→22 … 24→25: jobs that cron runs as the next user (their scripts are readable by the
// level's player), and the daemon on port 30002 that wants the password and a 4-digit PIN.
import type { LevelBuilder } from './world.ts';

export const PIN_PORT = 30002;

/** A crontab line: run at boot and every minute, as `user`, the script of the next level. */
const cronTab = (user: string) =>
  `@reboot ${user} /usr/bin/cronjob_${user}.sh &> /dev/null\n* * * * * ${user} /usr/bin/cronjob_${user}.sh &> /dev/null\n`;

export function buildCronLevels(b: LevelBuilder): void {
  b.dir('/etc/cron.d');
  b.dir('/usr/bin');
  b.dir('/var/spool');
  // Jobs that are not part of any level, as on a real host.
  b.file(
    '/etc/cron.d/e2scrub_all',
    '30 3 * * 0 root test -e /run/systemd/system || SERVICE_MODE=1 /usr/lib/x86_64-linux-gnu/e2fsprogs/e2scrub_all_cron\n',
    'root',
    'root',
    0o644,
  );
  b.file(
    '/etc/cron.d/.placeholder',
    '# DO NOT EDIT OR REMOVE\n# This file is a simple placeholder to keep dpkg from removing this directory\n',
    'root',
    'root',
    0o644,
  );

  // 21 → 22: the job copies the password to a fixed file in /tmp that anyone may read.
  const tmpName = `/tmp/${b.rng.alnum(32)}`;
  b.file('/etc/cron.d/cronjob_bandit22', cronTab('bandit22'), 'root', 'root', 0o644);
  b.file(
    '/usr/bin/cronjob_bandit22.sh',
    `#!/bin/bash\nchmod 644 ${tmpName}\ncat /etc/bandit_pass/bandit22 > ${tmpName}\n`,
    'bandit22',
    'bandit21',
    0o750,
  );

  // 22 → 23: the file's name is computed from the user's name.
  b.file('/etc/cron.d/cronjob_bandit23', cronTab('bandit23'), 'root', 'root', 0o644);
  b.file(
    '/usr/bin/cronjob_bandit23.sh',
    '#!/bin/bash\n\nmyname=$(whoami)\nmytarget=$(echo I am user $myname | md5sum | cut -d \' \' -f 1)\n\necho "Copying passwordfile /etc/bandit_pass/$myname to /tmp/$mytarget"\n\ncat /etc/bandit_pass/$myname > /tmp/$mytarget\n',
    'bandit23',
    'bandit22',
    0o750,
  );

  // 23 → 24: the job runs (as bandit24) every script bandit23 left in the spool directory, then deletes it.
  b.file('/etc/cron.d/cronjob_bandit24', cronTab('bandit24'), 'root', 'root', 0o644);
  b.file(
    '/usr/bin/cronjob_bandit24.sh',
    '#!/bin/bash\n\nmyname=$(whoami)\n\ncd /var/spool/$myname/foo\necho "Executing and deleting all scripts in /var/spool/$myname/foo:"\nfor i in * .*;\ndo\n    if [ "$i" != "." -a "$i" != ".." ];\n    then\n        echo "Handling $i"\n        owner="$(stat --format "%U" ./$i)"\n        if [ "${owner}" = "bandit23" ]; then\n            timeout -s 9 60 ./$i\n        fi\n        rm -rf ./$i\n    fi\ndone\n',
    'bandit24',
    'bandit23',
    0o750,
  );
  b.dir('/var/spool/bandit24', 'bandit24', 'bandit24', 0o755);
  // Anyone may drop a script in; nobody but bandit24 may list what is there.
  b.dir('/var/spool/bandit24/foo', 'root', 'bandit24', 0o773);

  // 24 → 25: the password and a PIN on one line; each wrong line gets an answer, and the right one ends it.
  const pin = String(b.rng.int(10_000)).padStart(4, '0');
  b.service({
    port: PIN_PORT,
    tls: false,
    answer: (input) => {
      let out =
        'I am the pincode checker for user bandit25. Please enter the password for user bandit24 and the secret pincode on a single line, separated by a space.\n';
      for (const line of input.split('\n')) {
        if (line.trim() === '') continue;
        const [password, code, ...rest] = line.trim().split(/\s+/);
        if (code === undefined || rest.length > 0) out += 'Fail! You did not supply enough data. Try again.\n';
        else if (password === b.pass(24) && code === pin)
          return `${out}Correct!\nThe password of user bandit25 is ${b.pass(25)}\n\nExiting.\n`;
        else out += 'Wrong! Please enter the correct current password and pincode. Try again.\n';
      }
      return out;
    },
  });
}
