// The CLI's rough edges on the real stack: it finds the stack on the WORKER_PORT `npm start` read (or at
// BANDIT_RUNNER_URL), says which variable is malformed, and a run started at level 2 asks in a real
// terminal (tmux) for bandit2's password, not bandit3's, and records the answer as given by "the CLI".
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildWorld } from '../../practice/world/world.ts';
import type { CliResult } from '../support/cli-process.ts';
import { allEvents } from '../support/cli-process.ts';
import { freePort } from '../support/free-port.ts';
import { stackForFile } from '../support/stack-process.ts';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'cli/main.ts');
const SEED = 'cli-rough-edges-seed';
const WAIT = { timeout: 90_000, interval: 200 };
const stack = stackForFile('cli-rough-edges', { PRACTICE_SEED: SEED });

/** The CLI with no --url and only the given variables naming where the stack is. */
function cliWithEnv(env: Record<string, string>, args: readonly string[]): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete base.BANDIT_RUNNER_URL;
  delete base.WORKER_PORT;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: root, env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('where the CLI finds the stack', () => {
  it('reads the WORKER_PORT the stack was started with', async () => {
    const found = await cliWithEnv({ WORKER_PORT: String(stack().ports.worker) }, ['list', 'models', '--json']);
    expect(found.stderr).toBe('');
    expect(found.code).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({
      models: expect.arrayContaining([expect.objectContaining({ id: 'baseline' })]),
    });
  });

  it('prefers BANDIT_RUNNER_URL, and --url over both', async () => {
    const closed = String(await freePort());
    const byUrl = await cliWithEnv({ BANDIT_RUNNER_URL: stack().url, WORKER_PORT: closed }, ['list', 'models']);
    expect(byUrl.code).toBe(0);
    const byFlag = await cliWithEnv({ WORKER_PORT: 'not-a-port' }, ['--url', stack().url, 'list', 'models']);
    expect(byFlag.code).toBe(0);
    // Nothing listens on the closed port: the CLI says where it looked.
    const nowhere = await cliWithEnv({ WORKER_PORT: closed }, ['list', 'models']);
    expect(nowhere.code).toBe(5);
    expect(nowhere.stderr).toContain(`http://127.0.0.1:${closed}`);
  });

  it('names a malformed variable in a usage error', async () => {
    const port = await cliWithEnv({ WORKER_PORT: '99999' }, ['list', 'models']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('WORKER_PORT must be a port number 1-65535 (got "99999")');
    const url = await cliWithEnv({ BANDIT_RUNNER_URL: 'ftp://example' }, ['list', 'models']);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('BANDIT_RUNNER_URL must be an http(s) URL');
  });
});

describe('a run started above level 0, in a terminal', () => {
  it("asks for bandit2's password and credits the answer to the CLI", async () => {
    const session = `cli-edges-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-300');
    const command = `WORKER_PORT=${stack().ports.worker} ${process.execPath} ${CLI} run --levels 2-3 --model baseline`;
    tmux('new-session', '-d', '-s', session, '-x', '200', '-y', '50', `${command}; echo EXIT=$?; sleep 120`);
    try {
      await vi.waitFor(() => expect(screen()).toMatch(/What now\?/), WAIT);
      expect(screen()).toMatch(/waiting for you at level 2 \(password required\)/);
      // The third choice offers the password the run needs: bandit2's, to log in at level 2.
      expect(screen()).toContain("Give bandit2's password");
      expect(screen()).not.toContain('bandit3');
      tmux('send-keys', '-t', session, 'Down');
      tmux('send-keys', '-t', session, 'Down');
      tmux('send-keys', '-t', session, 'Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/Password for bandit2:/), WAIT);
      tmux('send-keys', '-t', session, '-l', buildWorld(SEED).passwords[2]!);
      tmux('send-keys', '-t', session, 'Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/EXIT=\d/), WAIT);
      expect(screen()).toMatch(/EXIT=0/);
      const runId = /run (run_[0-9a-z]+)/.exec(screen())?.[1] ?? '';
      const answers = (await allEvents(stack().url, runId)).filter((e) => e.type === 'user_action_resolved');
      expect(answers).toEqual([expect.objectContaining({ action: 'password', by: 'the CLI' })]);
      expect(screen()).toContain('(by the CLI)');
    } finally {
      tmux('kill-session', '-t', session);
    }
  });
});
