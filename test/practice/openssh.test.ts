// A person with OpenSSH's own client (through sshpass): a login with a terminal, and an exec.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHostKey } from '../../practice/host-key.ts';
import { startRange } from '../../practice/server.ts';
import type { RunningRange } from '../../practice/server.ts';

let range: RunningRange;
beforeAll(async () => {
  range = await startRange({ host: '127.0.0.1', port: 0, hostKey: loadHostKey(null), seed: 'openssh-test' });
});
afterAll(() => range.close());

/** Runs OpenSSH's client asynchronously: the range serves from this same process. */
function openssh(
  password: string,
  args: string[],
  input = '',
): Promise<{ stdout: string; stderr: string; status: number | null }> {
  const sshArgs = [
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'LogLevel=ERROR',
    '-p',
    String(range.port),
  ];
  const child = spawn('sshpass', ['-p', password, 'ssh', ...sshArgs, ...args], { timeout: 20_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (status) => resolve({ stdout, stderr, status })));
}

describe('OpenSSH client', () => {
  it('runs a command (exec) and returns its output and exit code', async () => {
    const result = await openssh('bandit0', ['bandit0@127.0.0.1', 'cat readme; exit 3']);
    expect(result.stdout).toContain(range.world.passwords[1]);
    expect(result.status).toBe(3);
  });

  it('logs a person in with a terminal, runs what they type, and logs out', async () => {
    const result = await openssh('bandit0', ['-tt', 'bandit0@127.0.0.1'], 'whoami\ncat readme\nexit\n');
    const out = result.stdout.replace(/\r/g, '');
    expect(out).toMatch(/bandit0@practice:~\$ /);
    expect(out).toMatch(/\nbandit0\n/);
    expect(out).toContain(range.world.passwords[1]);
    expect(result.status).toBe(0);
  });

  it('refuses a wrong password', async () => {
    const result = await openssh('nope', ['bandit1@127.0.0.1', 'true']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/Permission denied/);
  });
});
