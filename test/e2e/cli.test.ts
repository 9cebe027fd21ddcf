// The command-line client against the real stack (`npm start`'s own script). Interactive cases run
// in a real pseudo-terminal (tmux): a run pauses at level 13 and is answered with a hint typed at the
// prompt. The rest run as a script would: --dry-run starts nothing, --parallel 3 has three runs going
// at once, `watch` gets every event once across dropped sockets, --json parses, and a run that
// stops on its pause exits with the stopped code.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { queueStatusSchema } from '../../schema/queue.ts';
import { runListSchema } from '../../schema/run.ts';
import { runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'cli/main.ts');
const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';
const stack = stackForFile('cli');

/** The CLI as a script runs it: no terminal; resolves with its exit code and output. */
const cli = (args: string[], url = stack().url) => runCli(url, args);

const runCount = async () =>
  runListSchema.parse(await (await fetch(`${stack().url}/api/runs?limit=100`)).json()).runs.length;

describe('bandit-runner in a terminal', () => {
  it('shows a run, asks at its pause, and takes the hint typed at the prompt', async () => {
    const session = `cli-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-300');
    // Baseline solves 0-12 and runs out of its one retry at 13, where the hint gets it through.
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '200',
      '-y',
      '50',
      `${process.execPath} ${CLI} --url ${stack().url} run --levels 0-13 --model baseline --max-retries 1; echo EXIT=$?; sleep 120`,
    );
    try {
      await vi.waitFor(() => expect(screen()).toMatch(/What now\?/), { timeout: 90_000, interval: 200 });
      expect(screen()).toMatch(/waiting for you at level 13/);
      expect(screen()).toMatch(/level 12 solved/);
      // The first choice is "Give a hint and continue".
      tmux('send-keys', '-t', session, 'Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/Hint:/), { timeout: 10_000, interval: 100 });
      tmux('send-keys', '-t', session, '-l', HINT);
      tmux('send-keys', '-t', session, 'Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/EXIT=\d/), { timeout: 60_000, interval: 200 });
      const text = screen();
      expect(text).toMatch(/level 13 solved/);
      expect(text).toMatch(/run completed: 14 levels solved/);
      expect(text).toMatch(/EXIT=0/);
    } finally {
      tmux('kill-session', '-t', session);
    }
  });
});

describe('bandit-runner in a terminal, several runs', () => {
  it('draws one live progress line per run and a summary table', async () => {
    const session = `cli-progress-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-100');
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '160',
      '-y',
      '40',
      `${process.execPath} ${CLI} --url ${stack().url} run --model baseline --repeats 2 --levels 0-4; echo EXIT=$?; sleep 60`,
    );
    try {
      await vi.waitFor(() => expect(screen()).toMatch(/EXIT=\d/), { timeout: 60_000, interval: 200 });
      const text = screen();
      expect(text).toMatch(/Summary/);
      // Two runs, each on one line: its model, 5 levels solved, and its status.
      expect(text.split('Summary')[1]!.match(/baseline +L5 +5 solved .* completed/g)).toHaveLength(2);
      expect(text).toMatch(/EXIT=0/);
    } finally {
      tmux('kill-session', '-t', session);
    }
  });
});

describe('bandit-runner as a script', () => {
  it('export writes the archive of a run', async () => {
    const runs = runListSchema.parse(
      await (await fetch(`${stack().url}/api/runs?status=completed&limit=1`)).json(),
    ).runs;
    const out = mkdtempSync(join(tmpdir(), 'bandit-runner-export-'));
    try {
      const result = await cli(['export', runs[0]!.id, '--out', out]);
      expect(result.code).toBe(0);
      const path = result.stdout.trim();
      expect(path.startsWith(out)).toBe(true);
      // A zip: it starts with the local file header's signature.
      expect(readFileSync(path).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('--dry-run prints the plan and its forecast, and starts nothing', async () => {
    const before = await runCount();
    const result = await cli([
      'run',
      '--model',
      'baseline',
      '--repeats',
      '3',
      '--levels',
      '0-2',
      '--dry-run',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      dryRun: true,
      kind: 'batch',
      batch: { models: ['baseline'], repeats: 3, startLevel: 0, endLevel: 2 },
      // Its forecast, from whatever history the stack has: one row per level, times the repeats.
      forecast: { repeats: 3, models: [{ model: 'baseline', levels: [{ level: 0 }, { level: 1 }, { level: 2 }] }] },
      forecastError: null,
    });
    const text = await cli(['run', '--model', 'baseline', '--levels', '0-1', '--dry-run']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/would start 1 run: baseline/);
    expect(text.stdout).toMatch(/Forecast from past runs/);
    expect(text.stdout).toMatch(/level {2}1 {2}(no history|\$)/);
    expect(await runCount()).toBe(before);
  });

  it('a bad flag is one line naming it, with the usage code', async () => {
    const result = await cli(['run', '--budget', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--budget/);
    const unreachable = await cli(['list', 'models'], 'http://127.0.0.1:9');
    expect(unreachable.code).toBe(5);
  });

  it('--parallel 3 has three runs going at once, and a run that stops at its pause exits with the stopped code', async () => {
    let most = 0;
    const poll = setInterval(() => {
      void fetch(`${stack().url}/api/queue`).then(async (r) => {
        most = Math.max(most, queueStatusSchema.parse(await r.json()).running.length);
      });
    }, 50);
    // Baseline solves 0-12 and pauses at 13 with one retry; hands-off, each run stops there.
    const result = await cli([
      'run',
      '--model',
      'baseline',
      '--repeats',
      '4',
      '--parallel',
      '3',
      '--levels',
      '0-13',
      '--max-retries',
      '1',
      '--on-pause',
      'stop',
      '--json',
    ]);
    clearInterval(poll);
    expect(result.code).toBe(4);
    const outcome = JSON.parse(result.stdout) as { batchId: string; runs: { status: string; levelsSolved: number }[] };
    expect(outcome.runs).toHaveLength(4);
    expect(outcome.runs.every((r) => r.status === 'stopped' && r.levelsSolved === 13)).toBe(true);
    expect(most).toBe(3);
  });

  it('watch prints every event once across dropped sockets', async () => {
    // A TCP relay that drops each of the first three WebSockets through it after 4 KB have reached
    // the client: mid-replay or mid-run, wherever that falls. REST passes untouched.
    let cuts = 0;
    const relay: Server = createServer((client) => {
      const upstream = connect(stack().ports.worker, '127.0.0.1');
      let socket = false;
      let bytes = 0;
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('data', (chunk: Buffer) => {
        // The request line names the run's socket route; a keep-alive connection may carry it after a REST call.
        if (/^GET \/api\/runs\/run_\w+\/ws\?/.test(chunk.toString('latin1'))) socket = true;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk: Buffer) => {
        client.write(chunk);
        bytes += chunk.length;
        if (socket && bytes > 4096 && cuts < 3) {
          cuts += 1;
          drop();
        }
      });
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    try {
      // Baseline plays 0-12 and pauses at 13; not a terminal, so watch ends at the pause with code 3.
      const created = await fetch(`${stack().url}/api/runs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endLevel: 13, maxRetries: 1 }),
      });
      const { id } = (await created.json()) as { id: string };
      const result = await cli(['watch', id, '--json'], `http://127.0.0.1:${(relay.address() as AddressInfo).port}`);
      expect(result.code).toBe(3);
      const seqs = result.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { seq: number }).seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      const log = (await (await fetch(`${stack().url}/api/runs/${id}/events?limit=1000`)).json()) as {
        lastSeq: number;
      };
      expect(seqs.at(-1)).toBe(log.lastSeq);
      expect(cuts).toBe(3);
      expect(result.stderr.match(/reconnecting/g)).toHaveLength(3);
    } finally {
      relay.close();
    }
  });
});
