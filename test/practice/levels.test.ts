// Every level of the practice range, over real SSH: the commands a person would type recover the
// next password, and that password logs in as the next user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { sshExec } from '../support/ssh-client.ts';

let range: RunningRange;
beforeAll(async () => {
  range = await startRange({ host: '127.0.0.1', port: 0, hostKey: loadHostKey(null), seed: 'levels-test' });
});
afterAll(() => range.close());

const as = (n: number, command: string) =>
  sshExec({ port: range.port, username: `bandit${n}`, password: range.world.passwords[n]! }, command);

/** The last 32-character password-looking token in some output. */
function lastToken(text: string): string {
  const tokens = text.match(/\b[A-Za-z0-9]{32}\b/g) ?? [];
  return tokens[tokens.length - 1] ?? '';
}

const LEVEL12 = [
  'd=$(mktemp -d) && cd $d && xxd -r ~/data.txt > data',
  'mv data data.gz && gzip -d data.gz && bzip2 -d data',
  'mv data.out data.gz && gzip -d data.gz && tar xf data',
  'bzip2 -d data6.bin && tar xf data6.bin.out',
  'mv data8.bin data8.gz && gzip -d data8.gz && cat data8',
].join(' && ');

/** What a person types at each level (run as that level's user). */
const SOLUTIONS: Record<number, string> = {
  0: 'cat readme',
  1: 'cat ./-',
  2: 'cat "spaces in this filename"',
  3: 'cat inhere/...Hiding-From-You',
  4: 'for f in ./inhere/*; do file "$f" | grep -q "ASCII text" && cat "$f"; done',
  5: 'cat "$(find inhere -type f -size 1033c ! -executable -exec file {} \\; | grep text | cut -d: -f1)"',
  6: 'cat $(find / -user bandit7 -group bandit6 -size 33c 2>/dev/null)',
  7: 'grep millionth data.txt',
  8: 'sort data.txt | uniq -u',
  9: 'strings data.txt | grep "==="',
  10: 'base64 -d data.txt',
  11: "tr 'A-Za-z' 'N-ZA-Mn-za-m' < data.txt",
  12: LEVEL12,
  13: 'ssh -i sshkey.private -p 2220 bandit14@localhost cat /etc/bandit_pass/bandit14',
  14: 'cat /etc/bandit_pass/bandit14 | nc localhost 30000',
  15: 'cat /etc/bandit_pass/bandit15 | openssl s_client -connect localhost:30001 -ign_eof',
  17: 'diff passwords.old passwords.new | grep "^>"',
  18: 'cat readme',
  19: './bandit20-do cat /etc/bandit_pass/bandit20',
  20: 'cat /etc/bandit_pass/bandit20 | nc -l -p 4321 & ./suconnect 4321',
};

describe('practice range levels', () => {
  it.each(Object.entries(SOLUTIONS).map(([n, command]) => [Number(n), command] as const))(
    'level %i: the standard technique finds the next password, and it logs in',
    async (n, command) => {
      const result = await as(n, command);
      const found = lastToken(result.stdout);
      expect(found, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(range.world.passwords[n + 1]);
      const next = await sshExec({ port: range.port, username: `bandit${n + 1}`, password: found }, 'whoami');
      expect(next.stdout).toBe(`bandit${n + 1}\n`);
    },
  );

  it('level 13: the private key also logs in from outside, as bandit14', async () => {
    const key = (await as(13, 'cat sshkey.private')).stdout;
    const result = await sshExec(
      { port: range.port, username: 'bandit14', privateKey: key },
      'cat /etc/bandit_pass/bandit14',
    );
    expect(result.stdout.trim()).toBe(range.world.passwords[14]);
  });

  it('level 16: a scan finds the SSL port that hands out the key to bandit17', async () => {
    const scan = await as(16, 'nmap -sV -p 31000-32000 localhost');
    const sslPorts = [...scan.stdout.matchAll(/^(\d+)\/tcp\s+open\s+ssl/gm)].map((m) => m[1]);
    expect(sslPorts.length).toBe(2);
    let key = '';
    for (const port of sslPorts) {
      const answer = await as(16, `cat /etc/bandit_pass/bandit16 | openssl s_client -connect localhost:${port} -quiet`);
      if (answer.stdout.includes('BEGIN OPENSSH PRIVATE KEY'))
        key = answer.stdout.slice(answer.stdout.indexOf('-----BEGIN'));
    }
    expect(key).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
    const result = await sshExec(
      { port: range.port, username: 'bandit17', privateKey: key },
      'cat /etc/bandit_pass/bandit17',
    );
    expect(result.stdout.trim()).toBe(range.world.passwords[17]);
  });

  it('the same seed builds the same world, another seed a different one', async () => {
    const { buildWorld } = await import('../../practice/world/world.ts');
    expect(buildWorld('levels-test').passwords).toEqual(range.world.passwords);
    expect(buildWorld('other').passwords[1]).not.toBe(range.world.passwords[1]);
    expect(range.world.passwords.slice(1).every((p) => /^[A-Za-z0-9]{32}$/.test(p))).toBe(true);
  });
});

describe('permissions', () => {
  it.each(Array.from({ length: 21 }, (_, n) => n))(
    'bandit%i reads its own pass file and not the next one',
    async (n) => {
      const result = await as(n, `cat /etc/bandit_pass/bandit${n}; cat /etc/bandit_pass/bandit${n + 1}`);
      expect(result.stdout.trim()).toBe(range.world.passwords[n]);
      expect(result.stderr).toBe(`cat: /etc/bandit_pass/bandit${n + 1}: Permission denied\n`);
      expect(result.code).toBe(1);
    },
  );

  it('shows owners and modes, and refuses writes outside /tmp', async () => {
    const result = await as(1, 'ls -l /etc/bandit_pass/bandit1 ./-; rm ./-; ls /tmp; whoami; id');
    expect(result.stdout).toMatch(/^-r-------- 1 bandit1 +bandit1 +33 .* \/etc\/bandit_pass\/bandit1$/m);
    expect(result.stdout).toMatch(/^-rw-r----- 1 bandit2 +bandit1 +33 .* \.\/-$/m);
    expect(result.stderr).toMatch(/rm: cannot remove '\.\/-': Permission denied/);
    expect(result.stderr).toMatch(/ls: cannot open directory '\/tmp': Permission denied/);
    expect(result.stdout).toMatch(/^bandit1\nuid=11001\(bandit1\) gid=11001\(bandit1\) groups=11001\(bandit1\)$/m);
    const write = await as(1, 'echo x > /etc/owned');
    expect(write.stderr).toMatch(/Permission denied/);
    expect(write.code).not.toBe(0);
    expect((await as(1, 'ls /etc/owned')).stderr).toMatch(/No such file or directory/);
  });

  it('refuses a wrong password the SSH way', async () => {
    await expect(sshExec({ port: range.port, username: 'bandit1', password: 'bandit0' }, 'true')).rejects.toThrow(
      /authentication methods failed/,
    );
    await expect(sshExec({ port: range.port, username: 'root', password: 'root' }, 'true')).rejects.toThrow(
      /authentication methods failed/,
    );
  });

  it('keeps stdout and stderr apart and returns real exit codes', async () => {
    const result = await as(0, 'echo out; echo err >&2; exit 42');
    expect(result).toEqual({ stdout: 'out\n', stderr: 'err\n', code: 42 });
  });
});
