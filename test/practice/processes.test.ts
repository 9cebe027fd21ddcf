// What a command starts lives within it: `timeout`'s process takes its turn as its parent's address,
// gets no more time than its parent has left, ends when its parent ends, and nests only so deep; and
// a connection's commands end when it closes, instead of running on for nobody.
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningRange } from '../../practice/server.ts';
import { sshExec } from '../support/ssh-client.ts';
import { startTestRange } from '../support/test-range.ts';

let range: RunningRange;
beforeAll(async () => {
  range = await startTestRange('processes', { limits: { commandTimeoutMs: 8_000, commandCpuMs: 2_000 } });
});
afterAll(() => range.close());

const login = () => ({ port: range.port, username: 'bandit0', password: 'bandit0', readyTimeout: 30_000 });
const idle = () =>
  vi.waitFor(() => expect(range.workerCounts()).toMatchObject({ busy: 0, waiting: 0 }), { timeout: 10_000 });

describe('a process that timeout starts', () => {
  it('runs as its parent’s address, with no limit of its own for timeout 0', async () => {
    const running = sshExec(login(), 'timeout 0 sleep 1; echo status $?');
    await vi.waitFor(() => expect(range.commandsByAddress()['127.0.0.1']?.running).toBe(2));
    expect(await running).toEqual({ stdout: 'status 0\n', stderr: '', code: 0 });
  });

  it('gets no more time than its parent has left, and ends with it', { timeout: 30_000 }, async () => {
    // The child asks for 30 s; the parent has 8 s of wall-clock time.
    const result = await sshExec(login(), 'timeout 30 sleep 30; echo never');
    expect(result.code).toBe(124);
    expect(result.stdout).toBe('');
    // Nothing of the 30 s sleep is left holding a worker.
    await idle();
  });

  it('nests only two deep', { timeout: 30_000 }, async () => {
    expect(await sshExec(login(), 'timeout 5 timeout 5 echo two deep')).toEqual({
      stdout: 'two deep\n',
      stderr: '',
      code: 0,
    });
    const deeper = await sshExec(login(), 'timeout 5 timeout 5 timeout 5 echo three deep; echo status $?');
    expect(deeper.stdout).toBe('status 125\n');
    expect(deeper.stderr).toMatch(/runs timeout at most 2 deep/);
  });
});

describe('a connection that closes', () => {
  it('gives up its running and waiting commands', async () => {
    const roomy = await startTestRange('processes-close', { limits: { commandTimeoutMs: 60_000 } });
    try {
      const client = new ssh2.Client();
      await new Promise<void>((resolve, reject) => {
        client
          .on('ready', () => resolve())
          .on('error', reject)
          .connect({ host: '127.0.0.1', ...login(), port: roomy.port });
      });
      // Three channels on one connection: one runs, two wait their turn behind it.
      for (let i = 0; i < 3; i++) client.exec('sleep 30; echo done', () => undefined);
      await vi.waitFor(() => expect(roomy.workerCounts().busy).toBe(1));
      client.end();
      // Had they run on for nobody, a worker would stay busy for 90 s.
      await vi.waitFor(() => expect(roomy.workerCounts()).toMatchObject({ busy: 0, waiting: 0 }), { timeout: 10_000 });
    } finally {
      await roomy.close();
    }
  }, 30_000);
});
