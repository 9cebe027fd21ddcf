// A run's record leaving the tool, against the real stack (wrangler dev + proxy + range, baseline):
// a run solves levels 0-12, pauses, is continued with a hint and pauses again. Its archive comes from
// the API with every file the manifest lists (and their sha256), no password of the run in it;
// Debian's asciinema reads terminal.cast; replay/replay.sh re-solves the levels through OpenSSH's own
// client; a verification run reports every level reproduced, and both archives carry its report.
// Restarted on another seed, the range has changed: the script and a new verification say drifted.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { allEvents as readAllEvents } from '../support/cli-process.ts';
import { startStackProcess, stackPorts } from '../support/stack-process.ts';
import { asciinemaCatFile } from '../support/asciinema.ts';

const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';
const WAIT = { timeout: 60_000 };
const FILES = [
  'manifest.json',
  'summary.json',
  'events.jsonl',
  'run.log',
  'transcript.md',
  'tool_metrics.json',
  'lessons.json',
  'terminal.cast',
  'report.html',
  'replay/replay.sh',
  'replay/lib.sh',
  'replay/level00.sh',
  'replay/level12.sh',
];

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-artifacts-'));
let stack: StackProcess;
beforeAll(async () => {
  stack = await startStackProcess(stateDir);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
  const response = await fetch(`${stack.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

async function waitFor(id: string, done: (run: RunSummary) => boolean, timeoutMs = 120_000): Promise<RunSummary> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const run = await api<RunSummary>(`/api/runs/${id}`);
    if (done(run)) return run;
    if (Date.now() > until) throw new Error(`run ${id} is still ${run.status} at level ${run.currentLevel}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const allEvents = (id: string) => readAllEvents(stack.url, id);

/** The archive unpacked into a fresh directory; its files as text. */
async function download(
  id: string,
  query = '',
): Promise<{ dir: string; files: Map<string, string>; response: Response }> {
  const response = await fetch(`${stack.url}/api/runs/${id}/artifacts${query}`);
  expect(response.status).toBe(200);
  const entries = unzipSync(new Uint8Array(await response.clone().arrayBuffer()));
  const dir = mkdtempSync(join(tmpdir(), 'bandit-runner-archive-'));
  const files = new Map<string, string>();
  for (const [path, bytes] of Object.entries(entries)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), bytes);
    if (path.endsWith('.sh')) chmodSync(join(dir, path), 0o755);
    files.set(path, new TextDecoder().decode(bytes));
  }
  return { dir, files, response };
}

/**
 * Runs replay.sh without blocking this process: a synchronous spawn kept the event loop from seeing
 * the stack close idle keep-alive sockets, and the next fetch went out on a closed one.
 */
function replay(
  dir: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [join(dir, 'replay/replay.sh')], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      timeout: 180_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

type Report = {
  runId: string;
  of: string;
  levels: { level: number; verdict: string; detail: string }[];
  ok: boolean;
  reproduced: number;
  drifted: number;
};

async function verify(id: string): Promise<{ run: RunSummary; report: Report }> {
  const created = await api<RunSummary>(`/api/runs/${id}/verify`, { method: 'POST', body: '{}' });
  expect(created.config).toMatchObject({ model: 'replay', maxRetries: 1, replay: { of: id } });
  const run = await waitFor(created.id, (r) => ['completed', 'stopped', 'failed'].includes(r.status));
  const { report } = await api<{ report: Report }>(`/api/runs/${created.id}/verification`);
  return { run, report };
}

describe('artifacts, replay and verify', () => {
  let runId: string;
  let passwords: Map<number, string>;
  let solvedLevels: number[];

  it('records a baseline run that solves 0-12, pauses, and is continued with a hint', async () => {
    const run = await api<RunSummary>('/api/runs', { method: 'POST', body: JSON.stringify({ maxRetries: 1 }) });
    runId = run.id;
    const paused = await waitFor(runId, (r) => r.status === 'paused_for_user_action');
    expect(paused.currentLevel).toBe(13);
    await api(`/api/runs/${runId}/actions`, {
      method: 'POST',
      body: JSON.stringify({ action: 'continue', hint: HINT }),
    });
    const again = await waitFor(runId, (r) => r.status === 'paused_for_user_action' && r.currentLevel > 13);
    expect(again.levelsSolved).toBeGreaterThanOrEqual(14);
    const events = await allEvents(runId);
    passwords = new Map([[0, 'bandit0']]);
    for (const e of events) if (e.type === 'password_found') passwords.set(e.level + 1, e.password);
    solvedLevels = events.flatMap((e) => (e.type === 'level_complete' ? [e.level] : []));
    expect(solvedLevels.slice(0, 14)).toEqual([...Array(14).keys()]);
  });

  it('downloads an archive with every file, hashed in the manifest, and no password of the run', async () => {
    const { files, response } = await download(runId);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(`${runId}.zip`);
    for (const file of FILES) expect([...files.keys()]).toContain(file);
    expect([...files.keys()].filter((p) => p.startsWith('llm/')).length).toBeGreaterThan(20);
    expect([...files.keys()]).toContain('llm/0001-plan.json');

    const manifest = JSON.parse(files.get('manifest.json')!);
    expect(manifest).toMatchObject({
      format: 'bandit-runner-artifacts',
      secrets: 'redacted',
      run: { id: runId, status: 'paused_for_user_action' },
      missing: [],
    });
    expect(manifest.replay.levels).toEqual(solvedLevels);
    // The run's log names where it played, and the manifest (and so replay.sh) takes it from there.
    const started = files
      .get('events.jsonl')!
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === 'level_started');
    expect(started.length).toBeGreaterThan(0);
    for (const event of started) expect(event.address).toBe(`127.0.0.1:${stack.ports.practice}`);
    expect(manifest.target.address).toBe(`127.0.0.1:${stack.ports.practice}`);
    const { createHash } = await import('node:crypto');
    for (const entry of manifest.files as { path: string; sha256: string; bytes: number }[]) {
      expect(createHash('sha256').update(files.get(entry.path)!).digest('hex'), entry.path).toBe(entry.sha256);
    }
    expect(manifest.files.length).toBe(files.size - 1);

    // Every password the run proved is a placeholder in every file; private keys too.
    expect(passwords.size).toBeGreaterThanOrEqual(15);
    for (const [path, text] of files) {
      for (const [level, password] of passwords)
        if (level > 0) expect(text.includes(password), `${path} holds bandit${level}'s password`).toBe(false);
      expect(text, path).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY/);
    }
    expect(files.get('events.jsonl')).toContain('[REDACTED:bandit1-password]');
    expect(files.get('events.jsonl')).toContain('[REDACTED:private-key-1]');
    expect(manifest.redactions).toContainEqual({
      placeholder: '[REDACTED:bandit14-password]',
      kind: 'password',
      level: 14,
    });

    const summary = JSON.parse(files.get('summary.json')!);
    // Level 13 was solved after the hint; every other level alone.
    expect(summary.levels).toMatchObject({
      solved: solvedLevels.length,
      solvedAlone: solvedLevels.length - 1,
      solvedWithHelp: 1,
      solvedByFinalAttempt: 0,
      outcomes: { solved_alone: solvedLevels.length - 1, solved_with_hint: 1, solved_after_more_attempts: 0 },
    });
    expect(summary.perLevel.find((l: { level: number }) => l.level === 13)).toMatchObject({
      solved: true,
      outcome: 'solved_with_hint',
    });
    expect(files.get('transcript.md')).toContain('| 13 | hint |');
    expect(summary.pauses[0]).toMatchObject({
      level: 13,
      reason: 'max_retries',
      resolution: { action: 'continue', hint: HINT },
    });
    expect(summary.pauses.at(-1).resolution).toBeNull();
    const metrics = JSON.parse(files.get('tool_metrics.json')!);
    expect(metrics.tools.run_command.calls).toBe(summary.commands);
    expect(metrics.tools.submit_password.succeeded).toBe(solvedLevels.length);
    expect(metrics.byLevel['0'].run_command).toMatchObject({ calls: 1, succeeded: 1, successRate: 1 });
    expect(files.get('transcript.md')).toContain('## Level 13 → 14');
    expect(files.get('transcript.md')).toContain('**Hint from a person**');
    expect(files.get('run.log')!.split('\n').length).toBeGreaterThan(files.get('events.jsonl')!.split('\n').length - 2);
    expect(JSON.parse(files.get('lessons.json')!).lessons).toContainEqual(
      expect.objectContaining({ source: 'user', level: 13, text: HINT }),
    );
    const call = JSON.parse(files.get('llm/0001-plan.json')!);
    expect(call).toMatchObject({ stage: 'plan', model: 'baseline', level: 0 });
    expect(call.request).toBeTruthy();
  });

  it('puts the secrets in only when asked, and says so in the manifest', async () => {
    const { files, response } = await download(runId, '?secrets=include');
    expect(response.headers.get('x-bandit-runner-secrets')).toBe('included');
    expect(JSON.parse(files.get('manifest.json')!)).toMatchObject({ secrets: 'included', redactions: [] });
    expect(files.get('events.jsonl')).toContain(passwords.get(1)!);
    const bad = await fetch(`${stack.url}/api/runs/${runId}/artifacts?secrets=yes`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain(
      'must be "redacted" (the default) or "include"',
    );
  });

  it("has a terminal.cast that Debian's asciinema reads", async () => {
    const { dir, files } = await download(runId);
    const [header, first] = files.get('terminal.cast')!.split('\n');
    expect(JSON.parse(header!)).toMatchObject({ version: 2, width: 120, height: 36 });
    expect(JSON.parse(first!)).toEqual([expect.any(Number), 'o', expect.any(String)]);
    // A marker at each level start and each pause (the player's seek bar jumps between them).
    const lines = files.get('terminal.cast')!.trimEnd().split('\n').slice(1);
    const labels = lines.map((line) => JSON.parse(line) as [number, string, string]).filter((e) => e[1] === 'm');
    const starts = labels.filter(([, , label]) => label.startsWith('level ')).map(([, , label]) => label);
    expect(starts.slice(0, 13)).toEqual(Array.from({ length: 13 }, (_, level) => `level ${level}, attempt 1`));
    const pauses = labels.filter(([, , label]) => label.startsWith('paused at level ')).map(([, , label]) => label);
    expect(pauses).toHaveLength(2);
    expect(pauses[0]).toMatch(/^paused at level 13: /);
    const cat = asciinemaCatFile(join(dir, 'terminal.cast'));
    expect(cat.status, cat.stderr).toBe(0);
    expect(cat.stdout).toContain('bandit0@bandit');
    expect(cat.stdout).toContain('cat readme');
    expect(cat.stdout).toContain('[REDACTED:bandit1-password]');
  });

  it('re-solves the levels with replay/replay.sh through OpenSSH, the passwords from the environment', async () => {
    const { dir, files } = await download(runId);
    // The scripts hold no password; they read them from the environment.
    for (const [path, text] of files)
      if (path.startsWith('replay/'))
        for (const [level, pw] of passwords) if (level > 0) expect(text).not.toContain(pw);
    const env: Record<string, string> = { BANDIT_HOST: '127.0.0.1', BANDIT_PORT: String(stack.ports.practice) };
    for (const [level, password] of passwords) env[`BANDIT${level}_PASSWORD`] = password;
    const result = await replay(dir, env);
    expect(result.status, result.stderr).toBe(0);
    for (const level of solvedLevels) expect(result.stderr).toContain(`level ${level}: reproduced`);
    expect(result.stdout).toContain('$ cat readme');
    // Without the environment, each level's password is the one the level before proved; and with no
    // BANDIT_HOST / BANDIT_PORT the scripts go where the run played (the range's own port, not 2220).
    expect(files.get('replay/replay.sh')!.split('\n')[1]).toBe(
      `# played against 127.0.0.1:${stack.ports.practice}; override with BANDIT_HOST=... BANDIT_PORT=... bash replay.sh`,
    );
    const chained = await replay(dir, {});
    expect(chained.status, chained.stderr).toBe(0);
    expect(chained.stderr).toContain(`replaying against 127.0.0.1:${stack.ports.practice}`);
    expect(chained.stderr.match(/: reproduced/g)?.length).toBe(solvedLevels.length);
  });

  it('verifies the run: a replay run with no model reproduces every solved level, and both archives hold the report', async () => {
    const { run, report } = await verify(runId);
    expect(run.status).toBe('completed');
    // The verification run's config holds no password: a level's own one is a placeholder in its commands.
    for (const [level, pw] of passwords) if (level > 0) expect(JSON.stringify(run.config)).not.toContain(pw);
    expect(JSON.stringify(run.config)).toContain('{{level_password}}');
    expect(report.levels.map((l) => [l.level, l.verdict])).toEqual(solvedLevels.map((l) => [l, 'reproduced']));
    expect(report).toMatchObject({ of: runId, ok: true, drifted: 0 });
    const events = await allEvents(run.id);
    expect(events.filter((e) => e.type === 'llm_call')).toEqual([]);
    // It is listed like any run.
    const listed = await api<{ runs: RunSummary[] }>('/api/runs');
    expect(listed.runs.find((r) => r.id === run.id)?.config.model).toBe('replay');
    const own = await download(run.id);
    expect(JSON.parse(own.files.get('verify/report.json')!)).toMatchObject({ runId: run.id, ok: true });
    const original = await download(runId);
    expect(JSON.parse(original.files.get(`verify/${run.id}.json`)!)).toMatchObject({ of: runId, ok: true });
    expect(JSON.parse(original.files.get('manifest.json')!).verification.verifiedBy).toContain(run.id);
  });

  it('downloads the archive from the run page, replays the terminal at a chosen speed, and links the verification', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
      const page = await context.newPage();
      await page.goto(`${stack.url}/run?id=${runId}`);
      // The run is paused: its question opens first; set it aside.
      const question = page.getByRole('dialog', { name: 'The run needs you' });
      await question.waitFor(WAIT);
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'hidden', ...WAIT });
      const button = page.getByRole('button', { name: 'Download artifacts' });
      await button.waitFor(WAIT);
      const [saved] = await Promise.all([page.waitForEvent('download', WAIT), button.click()]);
      expect(saved.suggestedFilename()).toBe(`${runId}.zip`);
      const entries = unzipSync(new Uint8Array(readFileSync(await saved.path())));
      expect(Object.keys(entries)).toEqual(expect.arrayContaining(FILES));
      expect(JSON.parse(new TextDecoder().decode(entries['manifest.json']))).toMatchObject({
        run: { id: runId },
        secrets: 'redacted',
      });

      await page.getByRole('button', { name: 'Replay terminal' }).click();
      await page.getByLabel('Replay speed').selectOption('4');
      const player = page.locator('.terminal-replay-player[data-speed="4"] .ap-player');
      await player.waitFor(WAIT);
      // Whichever part of the session is on screen by now (at 4x it scrolls fast), it shows a prompt.
      await expect.poll(() => player.textContent(), WAIT).toMatch(/bandit\d+@bandit/);
      await screenshot(page, '14-terminal-replay');

      // The verification run links its original, and the original lists it with its figures.
      const verifications = page.getByRole('list', { name: 'Verifications of this run' });
      await verifications.waitFor(WAIT);
      expect(await verifications.textContent()).toContain(
        `${solvedLevels.length} reproduced, 0 drifted, 0 failed of ${solvedLevels.length}`,
      );
      await verifications.getByRole('link').first().click();
      await page.getByText('Verification of run').waitFor(WAIT);
      const rows = page.getByRole('table', { name: 'Verification report' }).locator('tbody tr');
      await expect.poll(() => rows.count(), WAIT).toBe(solvedLevels.length);
      expect(await rows.first().getAttribute('data-verdict')).toBe('reproduced');
      await screenshot(page, '15-verification-run');
    } finally {
      await browser.close();
    }
  });

  it('reports drift, not success, once the range runs another seed', async () => {
    const { dir } = await download(runId);
    await stack.stop();
    stack = await startStackProcess(stateDir, await stackPorts(), { PRACTICE_SEED: 'another-seed-entirely' });
    const result = await replay(dir, { BANDIT_HOST: '127.0.0.1', BANDIT_PORT: String(stack.ports.practice) });
    expect(result.stderr).toContain('level 0: drifted');
    expect(result.stderr).not.toContain('level 0: reproduced');
    const { run, report } = await verify(runId);
    expect(report.ok).toBe(false);
    expect(report.levels[0]).toMatchObject({ level: 0, verdict: 'drifted' });
    expect(report.reproduced).toBe(0);
    expect(['completed', 'stopped']).toContain(run.status);
  });
});
