// One player cannot hold the range up or fill it: a command that keeps the CPU busy is cut at its
// CPU time while other sessions are served, a command's memory is bounded, and every way of writing
// (redirection, cp, mv, mkdir, ln, tar and gzip output) is charged to the user's quota in its world,
// which holds across logins because what a login writes stays for the next one.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningRange } from '../../practice/server.ts';
import { startTestRange } from '../support/test-range.ts';
import { percentile } from '../../bench/stats.ts';
import { sshExec } from '../support/ssh-client.ts';

const QUOTA = 300 * 1024;
let range: RunningRange;
beforeAll(async () => {
  range = await startTestRange('isolation-test', {
    limits: { commandCpuMs: 3_000, commandTimeoutMs: 60_000, maxMemoryMb: 64, maxWrittenBytes: QUOTA },
  });
});
afterAll(() => range.close());

const login = () => ({ port: range.port, username: 'bandit0', password: 'bandit0' });
const run = (command: string) => sshExec(login(), command);

let dirs = 0;
/** Runs `command` in a fresh directory of /tmp, then removes it: files outlive the login that wrote them. */
const inTemp = async (command: string) => {
  const dir = `/tmp/quota-${process.pid}-${dirs++}`;
  const result = await run(`mkdir ${dir} && cd ${dir} && ${command}`);
  await run(`rm -rf ${dir}`);
  return result;
};

describe('a command that keeps the CPU busy', () => {
  // CPU time, not wall-clock time: on a loaded machine the niced loop takes longer to use its 3 s.
  it('is cut at its CPU time with exit 152, while other sessions are answered as usual', async () => {
    // Quadratic array growth inside just-bash's interpreter: minutes of CPU, no I/O, no yield.
    const started = performance.now();
    const hog = run('a=(); for i in $(seq 1 19999); do a+=($i); done; echo finished');
    let hogDone = false;
    void hog.then(() => (hogDone = true));
    await new Promise((r) => setTimeout(r, 300));
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const other = await run('whoami');
      latencies.push(performance.now() - t);
      expect(other.stdout).toBe('bandit0\n');
    }
    // Every other session's command came back while the hog was still running.
    expect(hogDone).toBe(false);
    const result = await hog;
    expect(result.code).toBe(152);
    expect(result.stdout).not.toContain('finished');
    expect(result.stderr).toBe(
      'practice range: command stopped after 3 s of CPU time, the most one command may use (a loop that never ends?)\n',
    );
    console.log(
      `whoami (login + exec) while a CPU-bound command ran: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms; hog cut after ${(performance.now() - started).toFixed(0)} ms`,
    );
    // The worker that was cut off is replaced; the range keeps its warm workers.
    await vi.waitFor(() => expect(range.workerCounts()).toEqual({ workers: 2, busy: 0, waiting: 0 }), {
      timeout: 10_000,
    });
    expect((await run('echo still here')).stdout).toBe('still here\n');
  }, 120_000);

  it('leaves a fork bomb refused by the shell, with other sessions served meanwhile', async () => {
    const [bomb, other] = await Promise.all([run(':(){ :|:& };:'), run('whoami')]);
    expect(bomb.code).toBe(126);
    expect(bomb.stderr).toMatch(/maximum recursion depth \(50\) exceeded/);
    expect(other.stdout).toBe('bandit0\n');
    const named = await run('bomb() { bomb | bomb & }; bomb; echo after');
    expect(named.stderr).toMatch(/maximum recursion depth/);
  });
});

describe('memory', () => {
  it('stops a command past its memory bound with exit 137 and keeps serving', async () => {
    // A long time limit, so that the memory bound is what stops the command.
    const roomy = await startTestRange('memory-test', { limits: { commandTimeoutMs: 60_000, maxMemoryMb: 64 } });
    try {
      const there = { port: roomy.port, username: 'bandit0', password: 'bandit0' };
      // 2.6 MB strings, each a new copy, kept in an array until the worker's 64 MiB heap is full.
      const result = await sshExec(
        there,
        'x=0123456789; for i in $(seq 1 18); do x=$x$x; done; a=(); i=0; while true; do i=$((i+1)); a+=("${x/0/$i}"); done',
      );
      expect(result.code).toBe(137);
      expect(result.stderr).toBe('practice range: command ran out of memory (64 MiB per command) and was killed\n');
      expect((await sshExec(there, 'cat readme')).stdout).toContain(roomy.world.passwords[1]);
    } finally {
      await roomy.close();
    }
  }, 90_000);

  it('refuses one huge string before it is allocated (V8 would abort the whole process on it)', async () => {
    const result = await run('x=a; while true; do x=$x$x; done');
    expect(result.code).toBe(126);
    expect(result.stderr).toMatch(/string length limit exceeded \(8388608 bytes\)/);
  });
});

describe('the disk quota', () => {
  const full = /Disk quota exceeded/;

  it('charges redirections, and gives the bytes back on rm', async () => {
    // just-bash ends the script at a failed redirection (bash would go on); a subshell contains it.
    const result = await inTemp(
      '(for i in $(seq 1 100); do seq 1 2000 >> f; done); echo subshell exit $?; wc -c < f; rm f; seq 1 2000 > g && echo written',
    );
    expect(result.stderr).toMatch(full);
    expect(result.stdout).toMatch(/^subshell exit 1\n(\d+)\nwritten\n$/);
    expect(Number(result.stdout.split('\n')[1])).toBeLessThanOrEqual(QUOTA);
  });

  it('charges cp, and a file moved keeps its charge', async () => {
    // 33 KiB: the quota holds 9 copies.
    const result = await inTemp(
      'seq 1 6000 > f; for i in $(seq 1 40); do cp f c$i || { echo stopped at $i; break; }; done; mv c1 moved; cp f again || echo still full',
    );
    expect(result.stderr).toMatch(/cp: .*Disk quota exceeded/);
    expect(result.stdout).toMatch(/stopped at \d+\n/);
    expect(result.stdout).toContain('still full');
  });

  it('charges cp -r of a tree, mkdir, and symbolic and hard links', async () => {
    const tree = await inTemp(
      'mkdir d; seq 1 6000 > d/f; for i in $(seq 1 40); do cp -r d d$i || { echo stopped at $i; break; }; done',
    );
    expect(tree.stdout).toMatch(/stopped at \d+/);
    const dirs = await inTemp('for i in $(seq 1 1000); do mkdir d$i || { echo stopped at $i; break; }; done');
    expect(dirs.stderr).toMatch(full);
    expect(Number(/stopped at (\d+)/.exec(dirs.stdout)?.[1])).toBeLessThan(QUOTA / 1024 + 2);
    const links = await inTemp(
      'echo x > f; for i in $(seq 1 1000); do ln -s f s$i || { echo stopped at $i; break; }; done',
    );
    expect(links.stdout).toMatch(/stopped at \d+/);
    const hard = await inTemp(
      'echo x > f; for i in $(seq 1 1000); do ln f h$i || { echo stopped at $i; break; }; done',
    );
    expect(hard.stdout).toMatch(/stopped at \d+/);
  });

  it('charges what tar and gunzip write', async () => {
    const tar = await inTemp(
      'seq 1 30000 > f; for i in $(seq 1 40); do tar cf a$i.tar f || { echo stopped at $i; break; }; done',
    );
    expect(tar.stderr).toMatch(full);
    expect(tar.stdout).toMatch(/stopped at \d+/);
    // 200 KB of zeros compress to a few hundred bytes; with 150 KB kept, expanding them again is too much.
    const gunzip = await inTemp('printf "%0200000d" 0 > z; gzip z; printf "%0150000d" 0 > keep; ls; gunzip z.gz');
    expect(gunzip.stdout).toBe('keep\nz.gz\n');
    expect(gunzip.stderr).toMatch(full);
  });

  it('keeps what a login wrote, moved or copied for the next login, still charged, until it is removed', async () => {
    const ledger = range.worlds()[0]!.ledger;
    const before = ledger.used('bandit0');
    const name = `kept-${process.pid}`;
    await run(
      `mkdir /tmp/${name} && echo x > /tmp/${name}/a && mv /tmp/${name}/a /tmp/${name}/b && cp /tmp/${name}/b /tmp/${name}-copy`,
    );
    // The next login finds all of it, and the quota still counts it: a logout frees nothing.
    expect((await run(`cat /tmp/${name}/b /tmp/${name}-copy`)).stdout).toBe('x\nx\n');
    expect(ledger.used('bandit0')).toBeGreaterThan(before);
    await run(`rm -r /tmp/${name} /tmp/${name}-copy`);
    expect(ledger.used('bandit0')).toBe(before);
  });
});
