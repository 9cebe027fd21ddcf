// One outcome per level, read the same by every reader, on the real stack (wrangler dev + proxy + range,
// baseline). The CLI plays a run of levels 0-16 in a real terminal (tmux) and a person answers it at
// three levels: a pause they asked for early on, answered with a bare continue; level 13's max-retries
// pause, with a hint; level 16's, with bandit17's password. The fold over the run's log, the board,
// analytics, the archive's summary.json and transcript.md, the CLI's summary and the run page's level
// strip then all say the same for every level (docs/outcomes.md).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { buildWorld } from '../../practice/world/world.ts';
import type { Board } from '../../schema/board.ts';
import { levelSetOf } from '../../schema/level-sets.ts';
import type { AnalyticsLevels } from '../../schema/analytics.ts';
import type { LevelOutcome } from '../../schema/level-outcome.ts';
import { LEVEL_OUTCOMES, OUTCOME_TEXT, isHelped } from '../../schema/level-outcome.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { LevelResult } from '../../schema/run-record.ts';
import { levelResults, recordOf } from '../../schema/run-record.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents, apiJson, runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'cli/main.ts');
const SEED = 'outcomes-e2e-seed';
/** What the person knows: the password that logs in as bandit17, which proves level 16. */
const BANDIT17 = buildWorld(SEED).passwords[17]!;
const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';
const LEVELS = Array.from({ length: 17 }, (_, level) => level);
const WAIT = { timeout: 90_000, interval: 200 };
const stack = stackForFile('outcomes', { PRACTICE_SEED: SEED });

const api = <T>(path: string, init: RequestInit = {}) => apiJson<T>(stack().url, path, init);

/** The CLI as a script runs it (no terminal); its stdout parsed as JSON. */
async function cliJson<T>(args: string[]): Promise<T> {
  const { code, stdout, stderr } = await runCli(stack().url, args);
  if (code !== 0) throw new Error(`cli ${args.join(' ')}: ${code} ${stderr}`);
  return JSON.parse(stdout) as T;
}

/** A reader's outcomes as level → outcome, lowest level first, to compare whole. */
const byLevel = (pairs: Iterable<readonly [number, LevelOutcome]>): Record<number, LevelOutcome> =>
  Object.fromEntries([...pairs].sort(([a], [b]) => a - b));

/** The CLI prints each outcome by its label (`L3 more attempts`); its outcome, read back. */
const OUTCOME_OF_LABEL = new Map(LEVEL_OUTCOMES.map((o) => [OUTCOME_TEXT[o].label, o]));

describe('one outcome per level, the same in every reader', () => {
  let runId: string;
  let startedFrom: string;
  let pausedLevel: number;
  let expected: Record<number, LevelOutcome>;
  let cliSummary: string;
  /** The fold's figures for each level, lowest first. */
  let folded: LevelResult[];

  it('plays a run from the CLI: a bare continue, a hint and a password at three levels', async () => {
    startedFrom = new Date(Date.now() - 1_000).toISOString();
    const session = `outcomes-${process.pid}`;
    const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
    const screen = () => tmux('capture-pane', '-p', '-J', '-t', session, '-S', '-500');
    const keys = (...k: string[]) => tmux('send-keys', '-t', session, ...k);
    tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '250',
      '-y',
      '60',
      `NO_COLOR=1 ${process.execPath} ${CLI} --url ${stack().url} run --levels 0-16 --model baseline --max-retries 1; echo EXIT=$?; sleep 300`,
    );
    try {
      // The person pauses the run as soon as it plays: the baseline solves a level in a fraction of a
      // second, so the pause lands on an early level, one it solves alone when let go on.
      // The CLI names its run first; the run's own object (not the D1 index, which lags) says when it plays.
      runId = await vi.waitFor(
        () => {
          const id = /\brun (run_[0-9a-z]+) /.exec(screen())?.[1];
          if (!id) throw new Error(`the CLI has not named its run yet:\n${screen()}`);
          return id;
        },
        { timeout: 60_000, interval: 20 },
      );
      await vi.waitFor(async () => expect((await api<RunSummary>(`/api/runs/${runId}`)).status).toBe('running'), {
        timeout: 60_000,
        interval: 10,
      });
      const paused = await api<RunSummary>(`/api/runs/${runId}/actions`, {
        method: 'POST',
        body: JSON.stringify({ action: 'pause' }),
      });
      pausedLevel = paused.currentLevel;
      expect(paused.status).toBe('paused_for_user_action');
      expect(pausedLevel, 'the pause must land before level 13, where the run pauses by itself').toBeLessThan(13);

      // (a) At the CLI's prompt: "Continue (retries reset)", the second choice; no hint.
      await vi.waitFor(() => expect(screen()).toMatch(/waiting for you at level \d+ \(user requested\)/), WAIT);
      await vi.waitFor(() => expect(screen()).toMatch(/What now\?/), WAIT);
      keys('Down');
      keys('Enter');
      // (b) Level 13: the baseline runs out of its one retry; "Give a hint and continue", the first.
      await vi.waitFor(() => expect(screen()).toMatch(/waiting for you at level 13 \(max retries\)/), WAIT);
      keys('Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/Hint:/), WAIT);
      keys('-l', HINT);
      keys('Enter');
      // (c) Level 16 (a TLS port to find): "Give the next level's password", the third, typed unechoed.
      await vi.waitFor(() => expect(screen()).toMatch(/waiting for you at level 16 \(max retries\)/), WAIT);
      keys('Down');
      keys('Down');
      keys('Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/Password for bandit17:/), WAIT);
      keys('-l', BANDIT17);
      keys('Enter');
      await vi.waitFor(() => expect(screen()).toMatch(/EXIT=\d/), WAIT);
      const text = screen();
      expect(text).toMatch(/EXIT=0/);
      expect(text).not.toContain(BANDIT17);
      cliSummary = text.slice(text.lastIndexOf('Summary'));
    } finally {
      tmux('kill-session', '-t', session);
    }

    const run = await api<RunSummary>(`/api/runs/${runId}`);
    expect(run).toMatchObject({ status: 'completed', levelsSolved: 17 });
    const events = await allEvents(stack().url, runId);
    const answers = events.flatMap((e) => (e.type === 'user_action_resolved' ? [[e.action, e.hint ?? null]] : []));
    expect(answers).toEqual([
      ['continue', null],
      ['continue', HINT],
      ['password', null],
    ]);
    const pauses = events.flatMap((e) => (e.type === 'user_action_required' ? [[e.level, e.reason]] : []));
    expect(pauses).toEqual([
      [pausedLevel, 'user_requested'],
      [13, 'max_retries'],
      [16, 'max_retries'],
    ]);
    expect(events.find((e) => e.type === 'level_complete' && e.level === 16)).toMatchObject({ solvedBy: 'person' });

    expected = byLevel(
      LEVELS.map((level) => [
        level,
        level === pausedLevel
          ? 'solved_after_more_attempts'
          : level === 13
            ? 'solved_with_hint'
            : level === 16
              ? 'solved_with_password'
              : 'solved_alone',
      ]),
    );
    // The one fold over the log is the reference every reader below is held to.
    folded = levelResults(recordOf(events));
    expect(byLevel(folded.map((l) => [l.level, l.outcome]))).toEqual(expected);
  });

  it("the CLI's summary", () => {
    const found = [...cliSummary.matchAll(/\bL(\d+) ([a-z ]+?)(?=,|\s*$)/gm)].flatMap(([, level, label]) => {
      const outcome = OUTCOME_OF_LABEL.get(label!);
      return outcome ? [[Number(level), outcome] as const] : [];
    });
    expect(byLevel(found), cliSummary).toEqual(expected);
  });

  it('the board (D1 run_levels)', async () => {
    // The roll-up reaches D1 through the run's outbox; it may land a moment after the run ends.
    await vi.waitFor(async () => {
      const board = await api<Board>(`/api/board?from=${encodeURIComponent(startedFrom)}`);
      const cells = board.cells.filter((c) => c.model === 'baseline');
      expect(cells.map((c) => c.runs)).toEqual(LEVELS.map(() => 1));
      const outcomes = cells.map((c) => {
        const present = LEVEL_OUTCOMES.filter((o) => c.outcomes[o] > 0);
        expect(present, `level ${c.level}`).toHaveLength(1);
        expect(c.alone).toBe(present[0] === 'solved_alone' ? 1 : 0);
        expect(c.helped).toBe(isHelped(present[0]!) ? 1 : 0);
        return [c.level, present[0]!] as const;
      });
      expect(byLevel(outcomes)).toEqual(expected);
      const model = board.models.find((m) => m.model === 'baseline');
      // The row says where it was measured: this range's catalogue (schema/level-sets.ts).
      expect(model).toMatchObject({
        runs: 1,
        levelsSolved: 17,
        levelsSolvedAlone: 14,
        target: 'practice',
        levelSet: levelSetOf('practice', Date.now()),
      });
      expect(model!.medianSolveMs).toBeGreaterThan(0);
    }, WAIT);
    // The CLI's `board` reads the same board.
    const printed = await cliJson<Board>(['board', '--json']);
    const cells = printed.cells.filter((c) => c.model === 'baseline');
    expect(byLevel(cells.map((c) => [c.level, LEVEL_OUTCOMES.find((o) => c.outcomes[o] > 0)!]))).toEqual(expected);
    // And as CSV: a row per model and level set, a line per cell, with the same outcomes' counts.
    const csv = await runCli(stack().url, ['board', '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const [head, ...lines] = csv.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const column = (name: string) => head!.indexOf(name);
    const baseline = lines.filter((l) => l[column('model')] === 'baseline');
    const rows = baseline.filter((l) => l[column('kind')] === 'model');
    expect(rows.map((l) => [l[column('level_set')], l[column('runs')], l[column('levels_solved_alone')]])).toEqual([
      [levelSetOf('practice', Date.now()), '1', '14'],
    ]);
    const csvCells = baseline.filter((l) => l[column('kind')] === 'cell');
    expect(csvCells.map((l) => [Number(l[column('level')]), Number(l[column('levels_solved_alone')])])).toEqual(
      cells.map((c) => [c.level, c.alone]),
    );
  });

  it('analytics (GET /api/analytics/levels)', async () => {
    await vi.waitFor(async () => {
      const { cells } = await api<AnalyticsLevels>(
        `/api/analytics/levels?model=baseline&from=${encodeURIComponent(startedFrom)}`,
      );
      expect(cells.map((c) => c.runs)).toEqual(LEVELS.map(() => 1));
      const outcomes = cells.map((c) => {
        const present = LEVEL_OUTCOMES.filter((o) => c.outcomes[o] > 0);
        expect(present, `level ${c.level}`).toHaveLength(1);
        expect(c.solvedAlone).toBe(present[0] === 'solved_alone' ? 1 : 0);
        expect(c.solvedWithHelp).toBe(isHelped(present[0]!) ? 1 : 0);
        return [c.level, present[0]!] as const;
      });
      expect(byLevel(outcomes)).toEqual(expected);
      // The other per-level figures are the fold's too.
      const figures = (l: { level: number; attempts: number; retries: number; pauses: number }) =>
        [l.level, l.attempts, l.retries, l.pauses] as const;
      expect(cells.map(figures)).toEqual(folded.map(figures));
      expect(cells.map((c) => c.pausesByReason)).toEqual(folded.map((l) => l.pauseReasons));
    }, WAIT);
    expect(folded[pausedLevel]!.pauseReasons).toEqual({ user_requested: 1 });
    expect(folded[13]!.pauseReasons).toEqual({ max_retries: 1 });
  });

  it("the archive's summary.json and transcript.md", async () => {
    const response = await fetch(`${stack().url}/api/runs/${runId}/artifacts`);
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const text = (path: string) => new TextDecoder().decode(files[path]);
    const summary = JSON.parse(text('summary.json')) as {
      perLevel: Pick<LevelResult, 'level' | 'outcome' | 'attempts' | 'retries' | 'pauses' | 'commands'>[];
      levels: { solvedAlone: number; solvedWithHelp: number; outcomes: Record<LevelOutcome, number> };
    };
    expect(byLevel(summary.perLevel.map((l) => [l.level, l.outcome]))).toEqual(expected);
    const figures = (l: { level: number; attempts: number; retries: number; pauses: number; commands: number }) =>
      [l.level, l.attempts, l.retries, l.pauses, l.commands] as const;
    expect(summary.perLevel.map(figures)).toEqual(folded.map(figures));
    expect(summary.levels).toMatchObject({
      solvedAlone: 14,
      solvedWithHelp: 2,
      outcomes: { solved_alone: 14, solved_after_more_attempts: 1, solved_with_hint: 1, solved_with_password: 1 },
    });
    // The table of how each level ended, at the top of the transcript: `| level | label | …`.
    const transcript = text('transcript.md');
    const rows = [...transcript.matchAll(/^\| (\d+) \| ([a-z ]+) \|/gm)].flatMap(([, level, label]) => {
      const outcome = OUTCOME_OF_LABEL.get(label!);
      return outcome ? [[Number(level), outcome] as const] : [];
    });
    expect(rows).toHaveLength(LEVELS.length);
    expect(byLevel(rows)).toEqual(expected);
    expect(transcript.indexOf(`| 16 | ${OUTCOME_TEXT.solved_with_password.label} |`)).toBeLessThan(
      transcript.indexOf('## Level 0'),
    );
  });

  it("the run page's level strip, in Chromium", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`${stack().url}/run?id=${runId}`);
      const strip = page.locator('ol.level-strip li[data-level]');
      // The page folds the log as it streams in: wait until the last level carries its outcome.
      await page.locator('li[data-level="16"][data-outcome="solved_with_password"]').waitFor({ timeout: 60_000 });
      const shown = await strip.evaluateAll((items) =>
        items.map((li) => [Number(li.getAttribute('data-level')), li.getAttribute('data-outcome')] as const),
      );
      expect(byLevel(shown as [number, LevelOutcome][])).toEqual(expected);
      const marks = await strip.evaluateAll((items) =>
        items.flatMap((li) => {
          const mark = li.querySelector('sup')?.textContent;
          return mark ? [[Number(li.getAttribute('data-level')), mark] as const] : [];
        }),
      );
      expect(marks).toEqual([
        [pausedLevel, '+'],
        [13, 'h'],
        [16, 'p'],
      ]);
      await screenshot(page, '16-level-outcomes');
    } finally {
      await browser.close();
    }
  });
});
