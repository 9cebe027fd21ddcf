// `timeout` runs its command as a process of its own (another shell worker with its own time), so a
// busy loop is stopped while the shell that started it carries on. Its statuses and messages are
// compared with GNU coreutils' timeout, run by the host's bash on the same lines.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';
import { sshExec } from '../support/ssh-client.ts';

vi.setConfig({ testTimeout: 60_000 });

let range: RunningRange;
beforeAll(async () => {
  range = await startRange({ host: '127.0.0.1', port: 0, hostKey: loadHostKey(null), seed: 'timeout-test' });
});
afterAll(() => range.close());

const run = (command: string) => sshExec({ port: range.port, username: 'bandit0', password: 'bandit0' }, command);

/** What GNU's timeout prints for `line`, through the host's bash in the range's locale. */
function gnu(line: string): { stdout: string; stderr: string; code: number } {
  try {
    const stdout = execFileSync('bash', ['-c', line], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { stdout, stderr: '', code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; status: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.status };
  }
}

describe('timeout', () => {
  const lines = [
    'timeout 5 echo hi',
    "timeout 5 bash -c 'exit 3'",
    'timeout 1.5s echo in 1.5s',
    "timeout 1 bash -c 'while :; do :; done'",
    "timeout --preserve-status 1 bash -c 'while :; do :; done'",
    'timeout',
    'timeout 5',
    'timeout x y',
    'timeout -s BOGUS 1 true',
    'timeout -z 1 true',
  ];
  it.each(lines)('says what GNU coreutils says: %s', async (line) => {
    const range = await run(line);
    const real = gnu(line);
    // The test client keeps bytes as latin1; GNU's quotes (‘x’) are UTF-8.
    const text = (s: string) => Buffer.from(s, 'latin1').toString('utf8');
    expect({ stdout: text(range.stdout), stderr: text(range.stderr), code: range.code }).toEqual(real);
  });

  it('stops a busy loop in its own process: the shell that started it goes on, and KILL gives 137', async () => {
    const result = await run(
      "timeout -s 9 1 bash -c 'while :; do :; done'; echo status $?; timeout 1 bash -c 'while :; do :; done'; echo status $?",
    );
    expect(result.stdout).toBe('status 137\nstatus 124\n');
    // The shell's own worker was never stopped: only the processes were.
    expect((await run('whoami')).stdout).toBe('bandit0\n');
  });
});
