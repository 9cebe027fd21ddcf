// What a careless or hostile player (or model) might type is contained: no host files, no network,
// no runaway loops, no endless output, no unbounded files, and the range keeps serving others.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningRange } from '../../practice/server.ts';
import { startTestRange, textUntilClosed } from '../support/test-range.ts';
import { sshExec, sshLogin } from '../support/ssh-client.ts';

let range: RunningRange;
beforeAll(async () => {
  range = await startTestRange('hostile-test', {
    limits: { commandTimeoutMs: 1_500, maxOutputBytes: 64 * 1024, maxWrittenBytes: 1024 * 1024 },
  });
});
afterAll(() => range.close());

const run = (command: string) => sshExec({ port: range.port, username: 'bandit0', password: 'bandit0' }, command);

describe('hostile commands', () => {
  it('cannot read the host filesystem', async () => {
    const result = await run(`cat ${process.cwd()}/package.json; cat /etc/shadow; ls /home`);
    expect(result.stdout).not.toContain('bandit-runner');
    expect(result.stderr).toMatch(/No such file or directory/);
    expect(result.stdout).toMatch(/^bandit0$/m);
  });

  it('sees no host processes or environment in /proc', async () => {
    const result = await run('cat /proc/self/environ /proc/1/cmdline 2>&1; env');
    expect(result.stdout).not.toContain(process.env.PATH ?? 'unused');
    expect(result.stdout).not.toMatch(/vitest|node_modules/);
  });

  it('reaches no other host', async () => {
    const result = await run(
      'nc 1.1.1.1 80 < /dev/null; ssh root@8.8.8.8; openssl s_client -connect example.com:443; curl http://example.com; nmap 10.0.0.1',
    );
    expect(result.stderr).toMatch(/nc: getaddrinfo for host "1\.1\.1\.1" port 80: Name or service not known/);
    expect(result.stderr).toMatch(/ssh: Could not resolve hostname 8\.8\.8\.8/);
    expect(result.stderr).toMatch(/curl: command not found/);
    expect(result.stdout).toMatch(/Failed to resolve "10\.0\.0\.1"/);
  });

  it('stops a fork bomb', async () => {
    const result = await run(':(){ :|:& };:');
    expect(result.code).not.toBe(0);
  });

  it('stops sleep forever with exit 124', async () => {
    const started = Date.now();
    const result = await run('sleep 100000');
    expect(result.code).toBe(124);
    expect(result.stderr).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('caps endless output', async () => {
    const result = await run('while true; do echo yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy; done');
    expect(result.stdout.length).toBeLessThanOrEqual(64 * 1024 + 100);
    expect(result.code).not.toBe(0);
  });

  it('refuses a huge file once the user has written its quota, and other users still write', async () => {
    const small = await startTestRange('quota', { limits: { maxWrittenBytes: 200 * 1024 } });
    try {
      const login = { port: small.port, username: 'bandit0', password: 'bandit0' };
      const result = await sshExec(login, 'd=$(mktemp -d); for i in $(seq 1 20); do seq 1 15000 >> $d/big; done');
      expect(result.stderr).toMatch(/Disk quota exceeded/);
      expect((await sshExec(login, 'whoami')).stdout).toBe('bandit0\n');
      // A quota is one user's: the next user's writes are untouched by bandit0's full one.
      const next = { port: small.port, username: 'bandit1', password: small.world.passwords[1]! };
      expect((await sshExec(next, 'd=$(mktemp -d) && seq 1 15000 > $d/f && wc -c < $d/f')).stdout).toBe('78894\n');
    } finally {
      await small.close();
    }
  }, 30_000);

  it('keeps serving other connections after all of the above', async () => {
    const results = await Promise.all([run('whoami'), run('cat readme')]);
    expect(results[0]!.stdout).toBe('bandit0\n');
    expect(results[1]!.stdout).toContain(range.world.passwords[1]);
  });
});

describe('connection limits', () => {
  it('gives a connection a short time to log in, and does not count it against the cap until it has', async () => {
    const small = await startTestRange('gate', {
      maxConnections: 2,
      maxPending: 8,
      maxConnectionsPerAddress: 8,
      authTimeoutMs: 300,
    });
    try {
      // Five sockets that connect and never log in.
      const idle = Array.from({ length: 5 }, () => connect(small.port, '127.0.0.1'));
      await Promise.all(idle.map((socket) => new Promise((r) => socket.once('data', r))));
      expect(small.connectionCounts()).toEqual({ admitted: 0, pending: 5, evicted: 0 });
      // Agents still log in: the idle sockets hold none of the two places.
      const agents = [
        await sshLogin(small.port, 'bandit0', 'bandit0'),
        await sshLogin(small.port, 'bandit0', 'bandit0'),
      ];
      expect(agents.map((a) => a.ok)).toEqual([true, true]);
      expect(small.connectionCounts().admitted).toBe(2);
      // The idle ones are dropped once their time to log in is up.
      const closed = await Promise.all(
        idle.map(
          (socket) =>
            new Promise<boolean>((resolve) => {
              socket.on('close', () => resolve(true));
              setTimeout(() => resolve(false), 3_000);
            }),
        ),
      );
      expect(closed.every(Boolean)).toBe(true);
      await vi.waitFor(() => expect(small.connectionCounts()).toEqual({ admitted: 2, pending: 0, evicted: 0 }));
      for (const agent of agents) agent.end();
    } finally {
      await small.close();
    }
  }, 30_000);

  it('refuses connections past the cap with a message, and drops idle ones', async () => {
    const small = await startTestRange('cap', { maxConnections: 1, maxConnectionsPerAddress: 4, idleTimeoutMs: 400 });
    try {
      const first = await sshLogin(small.port, 'bandit0', 'bandit0');
      expect(first.ok).toBe(true);
      expect(await textUntilClosed(small.port)).toMatch(/too many connections \(limit 1\)/);
      // A logged-in connection that stays silent past the idle time is dropped.
      await vi.waitFor(() => expect(small.connections()).toBe(0), { timeout: 3_000 });
    } finally {
      await small.close();
    }
  }, 30_000);
});
