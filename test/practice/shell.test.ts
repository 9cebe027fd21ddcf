// Interactive logins over a pty: prompt, line editing, state kept between commands, ssh to the
// next level inside the session, and level 18's login that throws you out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { sshExec, sshShell } from '../support/ssh-client.ts';

let range: RunningRange;
beforeAll(async () => {
  range = await startRange({ host: '127.0.0.1', port: 0, hostKey: loadHostKey(null), seed: 'shell-test' });
});
afterAll(() => range.close());

const login = (n: number) => ({ port: range.port, username: `bandit${n}`, password: range.world.passwords[n]! });
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');

describe('interactive shell', () => {
  it('greets with the level goal, prompts, keeps the directory, and logs out on exit', async () => {
    const out = plain(await sshShell(login(3), 'cd inhere\rpwd\rls -a\rexit\r'));
    expect(out).toMatch(/Level 3 → 4: The password is in a hidden file/);
    expect(out).toMatch(/bandit3@practice:~\$ /);
    expect(out).toMatch(/\/home\/bandit3\/inhere\n/);
    expect(out).toMatch(/bandit3@practice:~\/inhere\$ /);
    expect(out).toContain('...Hiding-From-You');
    expect(out).toMatch(/logout\n$/);
  });

  it('edits the line: backspace, cursor keys and Ctrl-U', async () => {
    const out = plain(await sshShell(login(0), 'whoamx\x7fi\recho bc\x1b[D\x1b[Da\r\x15garbage\x15echo clean\rexit\r'));
    expect(out).toMatch(/\nbandit0\n/);
    expect(out).toMatch(/\nabc\n/);
    expect(out).toMatch(/\nclean\n/);
    expect(out).not.toMatch(/garbage: command not found/);
  });

  it('continues as bandit14 after ssh -i, and returns on exit', async () => {
    const out = plain(
      await sshShell(
        login(13),
        'ssh -i sshkey.private bandit14@localhost -p 2220\rwhoami\rcat /etc/bandit_pass/bandit14\rexit\rwhoami\rexit\r',
      ),
    );
    expect(out).toMatch(/bandit14@practice:~\$ whoami\nbandit14\n/);
    expect(out).toContain(range.world.passwords[14]);
    expect(out).toMatch(/Connection to localhost closed\.\nbandit13@practice:~\$ whoami\nbandit13\n/);
  });

  it("hands a command's binary output to the terminal as its bytes, by exec and in a pty", async () => {
    // Bytes that are not UTF-8 (ff, fe), then text from a second statement and its é.
    const exec = await sshExec(login(0), 'echo ff00fe0a | xxd -r -p; echo é; echo ff | xxd -r -p > /dev/null');
    expect(Buffer.from(exec.stdout, 'latin1')).toEqual(Buffer.from([0xff, 0x00, 0xfe, 0x0a, 0xc3, 0xa9, 0x0a]));
    // In a pty only the newline changes (to CR LF); the client decodes as UTF-8, so a byte 0xff is
    // U+FFFD there, where a byte decoded and written back as text would arrive as "ÿ".
    const shell = await sshShell(login(0), 'echo 41ff0a | xxd -r -p\rexit\r');
    expect(shell).toContain('A\ufffd\r\n');
    expect(shell).not.toContain('ÿ');
  });

  it('shows stdout and stderr in the order the command line wrote them, git clone first', async () => {
    const out = plain(
      await sshShell(
        login(27),
        `cat missing; echo between; ls gone || echo after\rcd $(mktemp -d) && git clone ssh://bandit27-git@localhost:2220/home/bandit27-git/repo && echo done\r${range.world.passwords[27]}\rexit\r`,
      ),
    );
    expect(out).toContain(
      "cat: missing: No such file or directory\nbetween\nls: cannot access 'gone': No such file or directory\nafter\n",
    );
    // At a terminal git shows its progress too (stderr), all of it before the `&& echo` after it.
    expect(out).toMatch(
      /Cloning into 'repo'\.\.\.\nremote: Enumerating objects: \d+, done\.\n[\s\S]*Receiving objects: 100% \(\d+\/\d+\), done\.\ndone\n/,
    );
  });

  it('throws an interactive bandit18 login out, while exec still works', async () => {
    const out = plain(await sshShell(login(18), 'cat readme\r'));
    expect(out).toMatch(/Byebye !/);
    expect(out).not.toContain(range.world.passwords[19]);
    expect((await sshExec(login(18), 'cat readme')).stdout.trim()).toBe(range.world.passwords[19]);
  });
});
