// No one client can starve, block or outwait the range for others: a command is stopped by its CPU
// time, not by how long it waits; one address's busy loops leave the other addresses their turns;
// one address holds only its share of the connections, and when the range is full an idle login of
// the address holding the most gives its place to a newcomer from elsewhere. Clients on other
// addresses are played from 127.0.0.2, which Linux routes to loopback like 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ssh2 from 'ssh2';
import type { RunningRange } from '../../practice/server.ts';
import { startTestRange, textUntilClosed } from '../support/test-range.ts';
import { percentile } from '../../bench/stats.ts';
import { sshExec } from '../support/ssh-client.ts';

const OTHER = '127.0.0.2';
let range: RunningRange;
beforeAll(async () => {
  range = await startTestRange('fair-share', {
    limits: { commandCpuMs: 2_000, commandTimeoutMs: 60_000 },
    workers: { max: 6, runningPerAddress: 3 },
  });
});
afterAll(() => range.close());

const login = (localAddress?: string) => ({
  port: range.port,
  username: 'bandit0',
  password: 'bandit0',
  // A loaded CI machine (the loops below, other test files) can take seconds over a handshake.
  readyTimeout: 30_000,
  ...(localAddress ? { localAddress } : {}),
});
const HOG = 'while true; do :; done';

describe('limits per command', () => {
  it('stops a busy loop at its CPU time but lets a command that only waits run past it', async () => {
    const [hog, wait] = await Promise.all([sshExec(login(), HOG), sshExec(login(), 'sleep 3; echo waited')]);
    expect(hog.code).toBe(152);
    expect(hog.stderr).toMatch(/stopped after 2 s of CPU time/);
    // Three seconds of wall-clock time, past the two of CPU: a wait is not work.
    expect(wait).toEqual({ stdout: 'waited\n', stderr: '', code: 0 });
  }, 30_000);

  it('lets a plain wait run past the old 10 s cut at the default limits', async () => {
    const plain = await startTestRange('fair-wait');
    try {
      const there = { port: plain.port, username: 'bandit0', password: 'bandit0' };
      expect(await sshExec(there, 'sleep 12; echo waited')).toEqual({ stdout: 'waited\n', stderr: '', code: 0 });
    } finally {
      await plain.close();
    }
  }, 60_000);

  it('holds an interactive shell’s commands to the same CPU time', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const client = new ssh2.Client();
      client
        .on('ready', () =>
          client.shell({ term: 'xterm', rows: 24, cols: 80 }, (err, stream) => {
            if (err) return reject(err);
            let text = '';
            stream.on('data', (d: Buffer) => {
              text += d.toString();
              if (/\nafter the loop\r?\n/.test(text)) {
                client.end();
                resolve(text);
              }
            });
            stream.write(`${HOG}\recho after the loop\r`);
          }),
        )
        .on('error', reject)
        .connect({ host: '127.0.0.1', ...login() });
    });
    expect(out).toMatch(/stopped after 2 s of CPU time/);
    // The shell is still there for the next command.
    expect(out).toMatch(/\nafter the loop\r?\n/);
  }, 30_000);
});

describe('turns by address', () => {
  it('answers another address, and another user of the same address, while one user keeps every connection it may looping', async () => {
    // Eight looping connections from one address: more than the whole pool (6 workers) could hold.
    let stop = false;
    let hogsEnded = 0;
    const hogs = Array.from({ length: 8 }, async () => {
      while (!stop) {
        await sshExec(login(OTHER), HOG).catch(() => undefined);
        hogsEnded++;
      }
    });
    const t0 = performance.now();
    await vi.waitFor(() => expect(range.commandsByAddress()[OTHER]?.running).toBe(3), { timeout: 20_000 });
    const endedBefore = hogsEnded;
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect((await sshExec(login(), 'whoami')).stdout).toBe('bandit0\n');
      latencies.push(performance.now() - started);
    }
    // The loops held their address's three workers throughout; the other address never waited for one.
    expect(range.commandsByAddress()[OTHER]).toEqual({ running: 3, waiting: 5 });
    console.log(
      `whoami from another address while 8 connections looped: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms; loops ended meanwhile: ${hogsEnded - endedBefore}`,
    );
    console.log(`hogs at their cap after ${(performance.now() - t0).toFixed(0)} ms`);
    // A player behind the loops' own address: bandit1 has used no CPU, bandit0 has, so bandit1's
    // command takes the address's next free worker ahead of the five loops waiting there.
    await vi.waitFor(() => expect(hogsEnded).toBeGreaterThan(0), { timeout: 60_000 });
    const endedAtAsk = hogsEnded;
    const neighbour = { ...login(OTHER), username: 'bandit1', password: range.world.passwords[1]! };
    const sameAddress = performance.now();
    expect((await sshExec(neighbour, 'whoami')).stdout).toBe('bandit1\n');
    // Waiting in turn behind the five would have taken five loops' ends; one frees the worker it gets.
    expect(hogsEnded - endedAtAsk).toBeLessThanOrEqual(3);
    console.log(
      `whoami behind the loops' own address: ${(performance.now() - sameAddress).toFixed(0)} ms, ${hogsEnded - endedAtAsk} loops ended meanwhile`,
    );
    stop = true;
    range.dropConnections();
    await Promise.all(hogs);
  }, 120_000);
});

/** A login that sends SSH keep-alives every 100 ms and runs nothing; `closed` settles when the range drops it. */
function idleLogin(port: number, localAddress: string): Promise<{ end: () => void; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    const closed = new Promise<void>((done) => client.on('close', () => done()));
    client
      .on('ready', () => resolve({ end: () => client.end(), closed }))
      .on('error', reject)
      .connect({
        host: '127.0.0.1',
        port,
        username: 'bandit0',
        password: 'bandit0',
        localAddress,
        keepaliveInterval: 100,
        readyTimeout: 10_000,
      });
  });
}

describe('connections per address', () => {
  it('refuses one address past its share, and a full range makes room for another address', async () => {
    const small = await startTestRange('fair-slots', {
      maxConnections: 3,
      maxConnectionsPerAddress: 3,
      evictIdleMs: 200,
    });
    try {
      const held = [];
      for (let i = 0; i < 3; i++) held.push(await idleLogin(small.port, OTHER));
      // The address has its three: a fourth is told why before the SSH handshake.
      expect(await textUntilClosed(small.port, OTHER)).toMatch(/too many connections from your address \(limit 3\)/);
      await new Promise((r) => setTimeout(r, 300));
      // The range is full of one address's idle logins; another address's player still gets in.
      const newcomer = { port: small.port, username: 'bandit0', password: 'bandit0' };
      expect((await sshExec(newcomer, 'whoami')).stdout).toBe('bandit0\n');
      expect(small.connectionCounts().evicted).toBe(1);
      expect(
        await Promise.race([
          Promise.any(held.map((h) => h.closed)).then(() => 'one closed'),
          new Promise((r) => setTimeout(() => r('none'), 3_000)),
        ]),
      ).toBe('one closed');
      for (const h of held) h.end();
    } finally {
      await small.close();
    }
  }, 30_000);

  it('closes a login that only sends keep-alives once it has been idle too long', async () => {
    const small = await startTestRange('fair-idle', { idleTimeoutMs: 500 });
    try {
      const idle = await idleLogin(small.port, '127.0.0.1');
      const outcome = await Promise.race([
        idle.closed.then(() => 'closed'),
        new Promise((r) => setTimeout(() => r('still open'), 5_000)),
      ]);
      expect(outcome).toBe('closed');
    } finally {
      await small.close();
    }
  }, 30_000);
});

describe('private worlds', () => {
  it('are given to the proxy’s address only: a run’s key is its id, which others can read', async () => {
    const asked = await sshExec(login(OTHER), 'whoami', { PRACTICE_WORLD: 'run_somebody_else' });
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(/private worlds are given to the proxy's address only/);
    expect(range.worlds()).toHaveLength(1);
    // From loopback (the proxy beside the range) the same key makes the run's world.
    expect((await sshExec(login(), 'whoami', { PRACTICE_WORLD: 'run_somebody_else' })).stdout).toBe('bandit0\n');
    expect(range.worlds().map((world) => world.key)).toEqual([undefined, 'run_somebody_else']);
  });
});

describe('runs the proxy names', () => {
  it('each take turns as a client of their own from the proxy’s address; a name from elsewhere is ignored', async () => {
    // Its own range, with a worker to spare for the gate: the six commands below wait for the test to
    // open it, so they are all running when they are counted however slowly a loaded machine logs them in.
    const gated = await startTestRange('fair-named', { workers: { max: 7, runningPerAddress: 3 } });
    const at = (localAddress?: string) => ({ ...login(localAddress), port: gated.port });
    const gate = '/tmp/named-runs-gate';
    const wait = (address: string | undefined, player: string) =>
      sshExec(at(address), `while [ ! -e ${gate} ]; do sleep 1; done; echo done`, { PRACTICE_PLAYER: player });
    // Four runs behind the proxy (127.0.0.1, trusted as for private worlds), past the address's 3 at once.
    const named = ['run_a', 'run_b', 'run_c', 'run_d'].map((player) => wait(undefined, player));
    // Two from another address, each naming a run: the names pass nothing, they are one address.
    const elsewhere = ['run_e', 'run_f'].map((player) => wait(OTHER, player));
    // Handled here too, so one that fails while the test waits is reported by the test, not as unhandled.
    for (const command of [...named, ...elsewhere]) command.catch(() => undefined);
    try {
      await vi.waitFor(
        () => {
          const byAddress = gated.commandsByAddress();
          for (const player of ['run_a', 'run_b', 'run_c', 'run_d'])
            expect(byAddress[`127.0.0.1 ${player}`]).toEqual({ running: 1, waiting: 0 });
          expect(byAddress[OTHER]).toEqual({ running: 2, waiting: 0 });
        },
        { timeout: 40_000 },
      );
      expect(
        Object.keys(gated.commandsByAddress()).filter((key) => key.includes('run_e') || key.includes('run_f')),
      ).toEqual([]);
      expect((await sshExec(at(), `touch ${gate}`)).code).toBe(0);
      for (const result of await Promise.all([...named, ...elsewhere])) expect(result.stdout).toBe('done\n');
      // A name must be a key as a world's is; another is refused as sshd refuses a variable.
      expect((await sshExec(at(), 'whoami', { PRACTICE_PLAYER: 'no spaces; allowed' })).stdout).toBe('bandit0\n');
    } finally {
      await gated.close();
      // A failure above leaves them waiting: closing the range ends them, and their ends are not errors of their own.
      await Promise.allSettled([...named, ...elsewhere]);
    }
  }, 90_000);
});
