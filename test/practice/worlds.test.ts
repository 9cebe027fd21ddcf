// One shared world as on the real server, and private worlds for runs that ask for one: what a login
// writes is there at the next login and for other users as its mode allows; a private world
// (PRACTICE_WORLD) is its own, kept across reconnects, with its own cron; /tmp is swept on a schedule.
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { sshExec } from '../support/ssh-client.ts';

// Several logins per test, and a private world's first login runs its cron's boot jobs: more than 5 s on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let range: RunningRange;
beforeAll(async () => {
  range = await startRange({
    host: '127.0.0.1',
    port: 0,
    hostKey: loadHostKey(null),
    seed: 'worlds-test',
    cronIntervalMs: 300,
  });
});
afterAll(() => range.close());

const as = (level: number) => ({
  port: range.port,
  username: `bandit${level}`,
  password: level === 0 ? 'bandit0' : range.world.passwords[level]!,
});
const inWorld = (key: string) => ({ PRACTICE_WORLD: key });

describe('the shared world', () => {
  it('keeps a file from one login to the next, as a person expects after logging out', async () => {
    const first = await sshExec(as(0), 'mkdir /tmp/x-shared && echo hi > /tmp/x-shared/f && echo planted');
    expect(first.stdout).toBe('planted\n');
    const second = await sshExec(as(0), 'cat /tmp/x-shared/f');
    expect(second).toEqual({ stdout: 'hi\n', stderr: '', code: 0 });
  });

  it('keeps players apart by Unix permissions: modes decide, and /tmp cannot be listed', async () => {
    await sshExec(
      as(1),
      'echo open > /tmp/x-open; chmod 644 /tmp/x-open; echo shut > /tmp/x-shut; chmod 600 /tmp/x-shut',
    );
    const other = await sshExec(as(2), 'cat /tmp/x-open; cat /tmp/x-shut; ls /tmp; rm /tmp/x-open');
    expect(other.stdout).toBe('open\n');
    expect(other.stderr).toContain('cat: /tmp/x-shut: Permission denied');
    expect(other.stderr).toContain("ls: cannot open directory '/tmp': Permission denied");
    // The sticky bit: only the owner removes a file in /tmp.
    expect(other.stderr).toContain('Operation not permitted');
    expect((await sshExec(as(1), 'cat /tmp/x-open')).stdout).toBe('open\n');
  });
});

describe('private worlds', () => {
  it('are their own: the shared world and another run cannot see a file, a reconnect can', async () => {
    const key = `run-${process.pid}`;
    await sshExec(as(0), 'echo secret > /tmp/x-private', inWorld(key));
    expect((await sshExec(as(0), 'cat /tmp/x-private')).stderr).toContain('No such file or directory');
    expect((await sshExec(as(0), 'cat /tmp/x-private', inWorld(`${key}-other`))).stderr).toContain(
      'No such file or directory',
    );
    expect((await sshExec(as(0), 'cat /tmp/x-private', inWorld(key))).stdout).toBe('secret\n');
    // A file planted in the shared world is not in the private one either.
    expect((await sshExec(as(0), 'cat /tmp/x-shared/f', inWorld(key))).stderr).toContain('No such file');
    expect(range.worlds().map((w) => w.key)).toEqual([undefined, key, `${key}-other`]);
  });

  it('run their own cron: level 21→22 works in a fresh private world', async () => {
    const found = await sshExec(
      as(21),
      'cat "$(grep -o "/tmp/[A-Za-z0-9]*" /usr/bin/cronjob_bandit22.sh | head -1)"',
      inWorld(`cron-${process.pid}`),
    );
    expect(found.stdout).toBe(`${range.world.passwords[22]}\n`);
  });

  it('refuses a key that is not a key, and a second world on one connection', async () => {
    const bad = await sshExec(as(0), 'echo ran', inWorld('../../etc'));
    // The env request is refused; the command runs in the shared world, as sshd ignores a refused variable.
    expect(bad.stdout).toBe('ran\n');
    const results = await twoWorldsOnOneConnection(`a-${process.pid}`, `b-${process.pid}`);
    expect(results[0]).toBe('first\n');
    expect(results[1]).toMatch(/this connection plays in world a-\d+; open a new connection for another world/);
  });

  it('are dropped with their files after hours without a login; the key then gets a fresh world', async () => {
    const key = `idle-${process.pid}`;
    await sshExec(as(0), 'echo kept > /tmp/x-idle', inWorld(key));
    const world = range.worlds().find((w) => w.key === key)!;
    await vi.waitFor(() => expect(world.logins).toBe(0));
    await range.sweepTmp(Date.now() + 60_000);
    expect(range.worlds().some((w) => w.key === key)).toBe(true);
    await range.sweepTmp(Date.now() + 7 * 3_600_000);
    expect(range.worlds().some((w) => w.key === key)).toBe(false);
    expect((await sshExec(as(0), 'cat /tmp/x-idle', inWorld(key))).stderr).toContain('No such file');
  });

  it('are refused at the door when the store has no room for another', async () => {
    const small = await startRange({
      host: '127.0.0.1',
      port: 0,
      hostKey: loadHostKey(null),
      seed: 'worlds-small',
      // The shared world's 39 users × 8 MiB, the logins' 64 MiB, and room for one private world of 8 + 2 MiB.
      worlds: { storeBytes: (39 * 8 + 64 + 10) * 1024 * 1024 + 1 },
    });
    try {
      const login = { port: small.port, username: 'bandit0', password: 'bandit0' };
      expect((await sshExec(login, 'echo one', inWorld('one'))).stdout).toBe('one\n');
      const refused = await sshExec(login, 'echo two', inWorld('two'));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/no room for another private world \(1 in use/);
      expect((await sshExec(login, 'echo shared')).stdout).toBe('shared\n');
    } finally {
      await small.close();
    }
  });
});

describe('the /tmp sweep', () => {
  it('removes entries untouched past the age and gives their quota back; cron writes its files again', async () => {
    await sshExec(as(3), 'mkdir /tmp/x-old && seq 1 5000 > /tmp/x-old/f');
    const shared = range.worlds()[0]!;
    const charged = shared.ledger.used('bandit3');
    expect(charged).toBeGreaterThan(20_000);
    expect(await range.sweepTmp()).toBe(0);
    const removed = await range.sweepTmp(Date.now() + 3 * 3_600_000);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(shared.ledger.used('bandit3')).toBe(0);
    expect((await sshExec(as(3), 'ls /tmp/x-old')).stderr).toContain('No such file or directory');
    // cron's file for level 21→22 went too (three hours passed for the sweep); its next round writes it again.
    const rounds = range.cronRounds();
    await vi.waitFor(() => expect(range.cronRounds()).toBeGreaterThan(rounds + 1), { timeout: 10_000 });
    const cronFile = await sshExec(
      as(21),
      'cat "$(grep -o "/tmp/[A-Za-z0-9]*" /usr/bin/cronjob_bandit22.sh | head -1)"',
    );
    expect(cronFile.stdout).toBe(`${range.world.passwords[22]}\n`);
  });
});

describe('memory', () => {
  it('is handed back with a full collection after a large release', async () => {
    const big = await startRange({
      host: '127.0.0.1',
      port: 0,
      hostKey: loadHostKey(null),
      seed: 'worlds-memory',
      limits: { maxWrittenBytes: 40 * 1024 * 1024 },
      worlds: { storeBytes: (39 * 40 + 64) * 1024 * 1024 },
    });
    try {
      const login = { port: big.port, username: 'bandit0', password: 'bandit0' };
      // 7 × 3 MB, one login each: a command line may print 4 MiB at most.
      for (let i = 0; i < 7; i++) await sshExec(login, 'printf "%03000000d" 0 >> /tmp/x-big');
      const wrote = await sshExec(login, 'du -b /tmp/x-big');
      expect(wrote.stdout).toBe('21000000\t/tmp/x-big\n');
      expect(big.memoryCollections()).toBe(0);
      await sshExec(login, 'rm /tmp/x-big');
      await vi.waitFor(() => expect(big.memoryCollections()).toBe(1), { timeout: 5_000 });
    } finally {
      await big.close();
    }
  }, 60_000);
});

/** Two execs on one SSH connection, the first in world `a`, the second naming world `b`. */
function twoWorldsOnOneConnection(a: string, b: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    const exec = (command: string, key: string) =>
      new Promise<string>((done, fail) =>
        client.exec(command, { env: inWorld(key) }, (err, stream) => {
          if (err) return fail(err);
          let out = '';
          stream.on('data', (d: Buffer) => (out += d));
          stream.stderr.on('data', (d: Buffer) => (out += d));
          stream.on('close', () => done(out));
        }),
      );
    client
      .on('ready', async () => {
        try {
          resolve([await exec('echo first', a), await exec('echo second', b)]);
        } catch (err) {
          reject(err);
        } finally {
          client.end();
        }
      })
      .on('error', reject)
      .connect({ host: '127.0.0.1', ...as(0), readyTimeout: 10_000 });
  });
}
