// Levels 21→33 played as a person plays them: cron jobs read and used (21–23), the PIN brute force
// over nc (24), OpenSSH's client in a 5-row terminal breaking out of more through vi (25→27), git
// over SSH with the password typed at the prompt (27–31), the uppercase shell's $0 (32), and the
// closing note (33).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningRange } from '../../practice/server.ts';
import { CLOSING_NOTE } from '../../practice/world/levels-escape.ts';
import { openSshTerminal } from '../support/openssh-terminal.ts';
import type { OpenSshTerminal } from '../support/openssh-terminal.ts';
import { sshExec } from '../support/ssh-client.ts';
import { startTestRange } from '../support/test-range.ts';

let range: RunningRange;
beforeAll(async () => {
  range = await startTestRange('late-levels', { cronIntervalMs: 200 });
});
afterAll(() => range.close());

const pass = (n: number) => range.world.passwords[n]!;
const as = (n: number, command: string) =>
  sshExec({ port: range.port, username: `bandit${n}`, password: pass(n) }, command);
const prompt = (user: string) => new RegExp(`${user}@practice:[^$]*\\$ $`);

/** Types a line and waits for the shell's next prompt; returns what the command printed. */
async function type(t: OpenSshTerminal, line: string, user: string): Promise<string> {
  t.send(`${line}\r`);
  return (await t.expect(prompt(user))).replace(/\r/g, '');
}

describe('levels 21→24: cron and the PIN daemon', () => {
  it('21→22: the job in /etc/cron.d copies the password to a file its script names', async () => {
    const crontab = await as(21, 'cat /etc/cron.d/cronjob_bandit22');
    expect(crontab.stdout).toMatch(/^\* \* \* \* \* bandit22 \/usr\/bin\/cronjob_bandit22\.sh/m);
    const script = (await as(21, 'cat /usr/bin/cronjob_bandit22.sh')).stdout;
    const target = /> (\/tmp\/\w+)/.exec(script)?.[1];
    expect(target).toBeDefined();
    expect((await as(21, `cat ${target}`)).stdout.trim()).toBe(pass(22));
  });

  it('22→23: the file is named by the md5 of a sentence with the user name in it', async () => {
    expect((await as(22, 'cat /usr/bin/cronjob_bandit23.sh')).stdout).toContain('md5sum');
    const result = await as(22, 'cat /tmp/$(echo I am user bandit23 | md5sum | cut -d " " -f 1)');
    expect(result.stdout.trim()).toBe(pass(23));
  });

  it('23→24: a script left in the spool directory runs as bandit24 on the next round and is deleted', async () => {
    const setup = await as(
      23,
      [
        'd=/tmp/late23',
        'mkdir -p $d && chmod 777 $d',
        "printf '#!/bin/bash\\ncat /etc/bandit_pass/bandit24 > /tmp/late23/pass\\n' > /var/spool/bandit24/foo/getpass.sh",
        'chmod 777 /var/spool/bandit24/foo/getpass.sh',
        // Wait for the round, as a player waits for the minute to turn (here 200 ms, however loaded the machine);
        // -s, not -e: the script's redirection makes the file before cat fills it.
        'for i in $(seq 1 150); do test -s $d/pass && break; sleep 0.2; done',
        'cat $d/pass',
        'for i in $(seq 1 50); do test -e /var/spool/bandit24/foo/getpass.sh || break; sleep 0.2; done',
        'test -e /var/spool/bandit24/foo/getpass.sh && echo still-there || echo removed',
      ].join('; '),
    );
    expect(setup.stdout).toContain(pass(24));
    expect(setup.stdout).toContain('removed');
    expect(range.cronRounds()).toBeGreaterThan(0);
  });

  it('23→24: a script bandit23 does not own is deleted without running', async () => {
    // bandit22's file in the spool: cron's owner check must skip it.
    const planted = await as(
      22,
      "printf '#!/bin/bash\\ntouch /tmp/late22-ran\\n' > /var/spool/bandit24/foo/x.sh; chmod 777 /var/spool/bandit24/foo/x.sh; for i in $(seq 1 150); do test -e /var/spool/bandit24/foo/x.sh || break; sleep 0.2; done; test -e /tmp/late22-ran && echo ran || echo skipped; test -e /var/spool/bandit24/foo/x.sh && echo still-there || echo removed",
    );
    expect(planted.stdout).toBe('skipped\nremoved\n');
  });

  it('24→25: brute-forcing the PIN with a loop over nc finishes within the command limit', async () => {
    const result = await as(
      24,
      `for i in {0000..9999}; do echo "${pass(24)} $i"; done | nc localhost 30002 | grep -v Wrong`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`The password of user bandit25 is ${pass(25)}`);
  }, 30_000);

  it('24→25: a wrong line gets an answer and the daemon keeps listening', async () => {
    const result = await as(24, `printf "${pass(24)}\\nnope 0000\\n" | nc localhost 30002`);
    expect(result.stdout).toContain('Fail! You did not supply enough data. Try again.');
    expect(result.stdout).toContain('Wrong! Please enter the correct current password and pincode. Try again.');
    expect(result.stdout).not.toContain(pass(25));
  });
});

describe('levels 25→27: out of showtext through more and vi (OpenSSH in a 5-row terminal)', () => {
  it('shows the login shell in /etc/passwd, and an exec only gets the text', async () => {
    expect((await as(25, 'grep bandit26 /etc/passwd')).stdout).toContain(':/usr/bin/showtext');
    const key = (await as(25, 'cat bandit26.sshkey')).stdout;
    const dir = mkdtempSync(join(tmpdir(), 'late-key-'));
    writeFileSync(join(dir, 'key'), key);
    chmodSync(join(dir, 'key'), 0o600);
    const exec = await sshExec(
      { port: range.port, username: 'bandit26', privateKey: key },
      'cat /etc/bandit_pass/bandit26',
    );
    expect(exec.stdout).not.toContain(pass(26));
    expect(exec.stdout).toContain('|_.__/');
  });

  it('with a big terminal more prints the text and the login ends at once', async () => {
    const key = (await as(25, 'cat bandit26.sshkey')).stdout;
    const dir = mkdtempSync(join(tmpdir(), 'late-key-'));
    writeFileSync(join(dir, 'key'), key, { mode: 0o600 });
    const t = openSshTerminal({ port: range.port, user: 'bandit26', key: join(dir, 'key'), rows: 40 });
    await t.expect(/\|_\.__\//);
    expect(await t.close()).toBe(0);
    expect(t.output()).not.toContain('--More--');
  });

  it('a small terminal stops more; v opens vi; :e reads the password; :set shell and :shell give bash; bandit27-do reads 27', async () => {
    const key = (await as(25, 'cat bandit26.sshkey')).stdout;
    const dir = mkdtempSync(join(tmpdir(), 'late-key-'));
    writeFileSync(join(dir, 'key'), key, { mode: 0o600 });
    const t = openSshTerminal({ port: range.port, user: 'bandit26', key: join(dir, 'key'), rows: 5 });
    await t.expect(/--More--\(\d+%\)/);
    t.send('v');
    await t.expect(/text\.txt" \d+L/);
    t.send(':e /etc/bandit_pass/bandit26\r');
    await t.expect(new RegExp(pass(26)));
    t.send(':set shell?\r');
    await t.expect(/shell=\/usr\/bin\/showtext/);
    t.send(':set shell=/bin/bash\r');
    t.send(':shell\r');
    await t.expect(prompt('bandit26'));
    const out = await type(t, './bandit27-do cat /etc/bandit_pass/bandit27', 'bandit26');
    expect(out).toContain(pass(27));
    t.send('exit\r');
    await t.expect(/Press ENTER/);
    t.send(':q\r');
    await t.expect(/--More--/);
    t.send('q');
    expect(await t.close()).toBe(0);
  }, 40_000);
});

describe('levels 27→32: git over SSH, the password typed at the prompt (OpenSSH with a terminal)', () => {
  /** Logs in as bandit<n>, clones its level's repository into a fresh directory, typing the password. */
  async function cloneAs(n: number): Promise<OpenSshTerminal> {
    const t = openSshTerminal({ port: range.port, user: `bandit${n}`, password: pass(n) });
    await t.expect(prompt(`bandit${n}`));
    await type(t, 'cd $(mktemp -d)', `bandit${n}`);
    t.send(`git clone ssh://bandit${n}-git@localhost:2220/home/bandit${n}-git/repo\r`);
    await t.expect(new RegExp(`bandit${n}-git@localhost's password: `));
    t.send(`${pass(n)}\r`);
    const cloned = await t.expect(prompt(`bandit${n}`));
    expect(cloned).toContain("Cloning into 'repo'...");
    await type(t, 'cd repo', `bandit${n}`);
    return t;
  }

  it('27→28: the README of the clone has the password; a wrong password is refused', async () => {
    const t = await cloneAs(27);
    expect(await type(t, 'cat README', 'bandit27')).toContain(`The password to the next level is: ${pass(28)}`);
    await type(t, 'cd /tmp', 'bandit27');
    t.send('git clone ssh://bandit27-git@localhost:2220/home/bandit27-git/repo /tmp/late-nope\r');
    for (let i = 0; i < 3; i++) {
      await t.expect(/password: $/);
      t.send('wrong\r');
    }
    expect(await t.expect(prompt('bandit27'))).toContain('Permission denied (publickey,password)');
    t.send('exit\r');
    await t.close();
  }, 40_000);

  it('28→29: the history shows what "fix info leak" removed', async () => {
    const t = await cloneAs(28);
    expect(await type(t, 'cat README.md', 'bandit28')).toContain('password: xxxxxxxxxx');
    const log = await type(t, 'git log --oneline', 'bandit28');
    expect(log).toMatch(
      /[0-9a-f]{7} fix info leak\n[0-9a-f]{7} add missing data\n[0-9a-f]{7} initial commit of README.md/,
    );
    const patch = await type(t, 'git show HEAD~1', 'bandit28');
    expect(patch).toContain(`+- password: ${pass(29)}`);
    expect(await type(t, 'git log -p', 'bandit28')).toContain(`-- password: ${pass(29)}`);
    t.send('exit\r');
    await t.close();
  }, 40_000);

  it('29→30: the password is on the dev branch', async () => {
    const t = await cloneAs(29);
    expect(await type(t, 'cat README.md', 'bandit29')).toContain('<no passwords in production!>');
    const branches = await type(t, 'git branch -a', 'bandit29');
    expect(branches).toContain('* master');
    expect(branches).toContain('remotes/origin/dev');
    expect(branches).toContain('remotes/origin/sploits-dev');
    expect(await type(t, 'git checkout dev', 'bandit29')).toContain("Switched to a new branch 'dev'");
    expect(await type(t, 'cat README.md', 'bandit29')).toContain(`password: ${pass(30)}`);
    t.send('exit\r');
    await t.close();
  }, 40_000);

  it('30→31: the tag "secret" points at the password', async () => {
    const t = await cloneAs(30);
    expect(await type(t, 'git tag', 'bandit30')).toContain('secret');
    expect(await type(t, 'git show secret', 'bandit30')).toContain(pass(31));
    t.send('exit\r');
    await t.close();
  }, 40_000);

  it('31→32: .gitignore stops key.txt until add -f; the push hook answers with the password and rejects', async () => {
    const t = await cloneAs(31);
    expect(await type(t, 'cat .gitignore', 'bandit31')).toContain('*.txt');
    await type(t, "echo 'May I come in?' > key.txt", 'bandit31');
    expect(await type(t, 'git add key.txt', 'bandit31')).toContain('The following paths are ignored');
    await type(t, 'git add -f key.txt', 'bandit31');
    expect(await type(t, 'git commit -m "upload key"', 'bandit31')).toMatch(/\[master [0-9a-f]{7}\] upload key/);
    t.send('git push origin master\r');
    await t.expect(/bandit31-git@localhost's password: $/);
    t.send(`${pass(31)}\r`);
    const pushed = (await t.expect(prompt('bandit31'))).replace(/\r/g, '');
    expect(pushed).toContain(`remote: ${pass(32)}`);
    expect(pushed).toContain('! [remote rejected] master -> master (pre-receive hook declined)');
    t.send('exit\r');
    await t.close();
  }, 40_000);

  it('a git user cannot log in with a shell', async () => {
    const result = await sshExec({ port: range.port, username: 'bandit27-git', password: pass(27) }, 'ls');
    expect(result.code).toBe(128);
    expect(result.stderr).toContain("fatal: unrecognized command 'ls'");
  });
});

describe('levels 32→33: the uppercase shell', () => {
  it('upper-cases commands, and $0 starts sh as bandit33', async () => {
    const t = openSshTerminal({ port: range.port, user: 'bandit32', password: pass(32) });
    await t.expect(/WELCOME TO THE UPPERCASE SHELL\r?\n>> $/);
    t.send('ls\r');
    expect(await t.expect(/>> $/)).toContain('sh: 1: LS: Permission denied');
    t.send('$0\r');
    await t.expect(/\$ $/);
    t.send('whoami; cat /etc/bandit_pass/bandit33\r');
    const out = await t.expect(/\$ $/);
    expect(out).toContain('bandit33');
    expect(out).toContain(pass(33));
    t.send('exit\r');
    await t.expect(/>> $/);
    await t.close();
  }, 40_000);

  it('33: the closing note', async () => {
    expect((await as(33, 'cat README.txt')).stdout).toBe(CLOSING_NOTE);
    expect((await as(31, 'cat /etc/bandit_pass/bandit33')).stderr).toContain('Permission denied');
  });
});
