// A newcomer's first ten minutes against the real stack (`npm start`'s own script) and real Chromium:
// npm start keeps its ready banner on screen (the access log hidden, back with BANDIT_RUNNER_ACCESS_LOG=1),
// the start form's labels are whole and explained, and the first run is paced so it can be watched
// (thinking stamped at least the pace after the step before it, in the stored log), from the form and the CLI.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { READABLE_PACE_MS, runSummarySchema } from '../../schema/run.ts';
import { accessLogLine, accessLogWanted, isAccessLogLine } from '../../scripts/access-log.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents, apiJson, runCli } from '../support/cli-process.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };
/** A request's line as the worker's front writes it, prefixed by npm start. */
const ACCESS_LINE = /^\[worker\] (?:GET|POST) \/\S* \d{3} \(\d+ ms\)$/m;
const BANNER = 'bandit-runner is ready';

/** A few requests of the kind the UI makes every 2-3 s. */
async function poll(url: string): Promise<void> {
  for (const path of ['/api/health', '/api/runs', '/api/queue', '/', '/?token=not-a-real-token-0123456789'])
    await (await fetch(`${url}${path}`)).arrayBuffer();
}

/** For each thinking event: ms since the step before it (the event before its own llm_call). */
function thinkingGaps(events: RunEvent[]): number[] {
  return events.flatMap((e, i) => {
    if (e.type !== 'thinking') return [];
    const before = events.slice(0, i).findLast((p) => p.type !== 'llm_call');
    return before ? [Date.parse(e.ts) - Date.parse(before.ts)] : [];
  });
}

describe('npm start with the access log hidden (the default)', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-first-run-'));
  let stack: StackProcess;
  let browser: Browser;
  beforeAll(async () => {
    // From an empty state directory, as a newcomer's first `npm start` (D1 migrated by it, not copied).
    [stack, browser] = await Promise.all([
      startStackProcess(stateDir, undefined, {}, { emptyState: true }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('prints no access-log line after the UI polls, and the ready banner stays on screen', async () => {
    for (let i = 0; i < 3; i++) await poll(stack.url);
    await new Promise((r) => setTimeout(r, 500));
    const output = stack.output();
    expect(output).not.toMatch(ACCESS_LINE);
    expect(output).not.toMatch(/\[worker\] GET \/api\//);
    // The banner is still among the last lines: nothing scrolled it away.
    const tail = output.trimEnd().split('\n').slice(-6).join('\n');
    expect(tail).toContain(BANNER);
    expect(tail).toMatch(/--access-log|BANDIT_RUNNER_ACCESS_LOG=1/);
  });

  it("the form's labels are whole and explained, and the first run is paced by default", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(stack.url);
    await page.getByRole('heading', { name: 'Start a run' }).waitFor(WAIT);
    const pace = page.getByLabel('Watch at a readable pace');
    // No run yet: the first run is paced unless the person unticks it.
    await expect.poll(() => pace.isChecked(), WAIT).toBe(true);

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      const fit = await selectTextFit(page, 'target');
      expect(fit.text).toBe('practice range (local)');
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
      expect(fit.textWidth).toBeLessThanOrEqual(fit.room);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const helpOf = (label: string) =>
      page.getByLabel(label).evaluate((el) => {
        const ids = (el.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
        return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      });
    expect(await helpOf('Max retries')).toMatch(/3 means up to 3 attempts/);
    expect(await helpOf('Commands per attempt')).toMatch(/Commands the agent may run in one attempt/);
    expect(await helpOf('Watch at a readable pace')).toMatch(/0\.7 s per step/);
    await screenshot(page, 'first-run-form');

    await page.getByLabel('To level').fill('3');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/run\?id=run_[0-9a-z]+$/, WAIT);
    const runId = new URL(page.url()).searchParams.get('id')!;
    const run = runSummarySchema.parse(await apiJson(stack.url, `/api/runs/${runId}`));
    expect(run.config.paceMs).toBe(READABLE_PACE_MS);
    // The thinking arrives on the page before the run is done: it can be watched.
    await page.locator('[data-event="thinking"]').first().waitFor(WAIT);
    await page.locator('[data-event="command"]').first().waitFor(WAIT);
    await screenshot(page, 'first-run-paced');
    await expect
      .poll(async () => runSummarySchema.parse(await apiJson(stack.url, `/api/runs/${runId}`)).status, {
        timeout: 120_000,
        interval: 500,
      })
      .toBe('completed');
    const events = await allEvents(stack.url, runId);
    const gaps = thinkingGaps(events);
    const commands = events.filter((e) => e.type === 'command').length;
    console.log(`form's first run: ${commands} commands, ${gaps.length} thinking gaps of ${Math.min(...gaps)}+ ms`);
    expect(gaps.length).toBeGreaterThanOrEqual(commands);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(READABLE_PACE_MS);
    expect(events.filter((e) => e.type === 'level_complete').map((e) => e.level)).toEqual([0, 1, 2, 3]);

    // With a run listed, the form no longer paces by default.
    await page.goto(stack.url);
    await page.getByRole('heading', { name: 'Start a run' }).waitFor(WAIT);
    await page.locator('.runs-table tbody tr').first().waitFor(WAIT);
    expect(await page.getByLabel('Watch at a readable pace').isChecked()).toBe(false);
    await page.close();
  });

  it('the CLI paces a run with --pace, and the stored log shows it', async () => {
    const result = await runCli(stack.url, ['run', '--levels', '0-1', '--pace', '300', '--json']);
    expect(result.code).toBe(0);
    const { runs } = JSON.parse(result.stdout) as { runs: { id: string }[] };
    const id = runs[0]!.id;
    const run = runSummarySchema.parse(await apiJson(stack.url, `/api/runs/${id}`));
    expect(run.config.paceMs).toBe(300);
    const gaps = thinkingGaps(await allEvents(stack.url, id));
    expect(gaps.length).toBeGreaterThan(0);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(300);
    const refused = await runCli(stack.url, ['run', '--pace', '700', '--model', 'baseline', '--repeats', '2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--pace/);
  });

  it('on stop, says how many access-log lines it hid', async () => {
    await stack.stop();
    const hidden = /\((\d+) access-log lines were hidden\)/.exec(stack.output());
    const shown = stack.output().split('\n').length;
    console.log(`npm start printed ${shown} lines and hid ${hidden?.[1]} access-log lines`);
    // At least the 15 polled here and the page's own requests.
    expect(Number(hidden?.[1])).toBeGreaterThanOrEqual(15);
  });
});

describe('npm start with BANDIT_RUNNER_ACCESS_LOG=1', () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-access-log-'));
  let stack: StackProcess;
  beforeAll(async () => {
    stack = await startStackProcess(stateDir, undefined, { BANDIT_RUNNER_ACCESS_LOG: '1' });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('prints a line per request, without the query (which may hold a token)', async () => {
    await poll(stack.url);
    await expect.poll(() => stack.output(), WAIT).toMatch(/^\[worker\] GET \/api\/runs 200 \(\d+ ms\)$/m);
    expect(stack.output()).toMatch(ACCESS_LINE);
    expect(stack.output()).not.toContain('not-a-real-token');
    expect(stack.output()).not.toMatch(/Requests are not logged here/);
  });
});

describe('which lines of the worker npm start hides', () => {
  it('shows them with --access-log or BANDIT_RUNNER_ACCESS_LOG=1, and names a mistyped flag', () => {
    expect(accessLogWanted([], {})).toBe(false);
    expect(accessLogWanted([], { BANDIT_RUNNER_ACCESS_LOG: '0' })).toBe(false);
    expect(accessLogWanted(['--access-log'], {})).toBe(true);
    expect(accessLogWanted([], { BANDIT_RUNNER_ACCESS_LOG: '1' })).toBe(true);
    expect(() => accessLogWanted(['--acess-log'], {})).toThrow(/--access-log.*"--acess-log" is not it/);
  });

  it("hides the front's request lines and wrangler's, never a 5xx or anything else", () => {
    expect(isAccessLogLine(accessLogLine('GET', '/api/runs?limit=20', 200, 3))).toBe(true);
    expect(accessLogLine('GET', '/?token=secret-token-value', 200, 1)).toBe('GET / 200 (1 ms)');
    // miniflare's own request line, colours and all, as wrangler prints it when it logs requests.
    const wrangler =
      '[wrangler:info] \x1b[0m\x1b[1mGET\x1b[22m /api/health \x1b[32m\x1b[1m200\x1b[22m OK\x1b[39m \x1b[90m(4ms)\x1b[39m';
    expect(isAccessLogLine(wrangler)).toBe(true);
    expect(isAccessLogLine(accessLogLine('POST', '/api/runs', 500, 12))).toBe(false);
    expect(isAccessLogLine('[wrangler:info] GET /api/runs 503 Service Unavailable (2ms)')).toBe(false);
    for (const line of ['worker ready on http://127.0.0.1:8787/', '[wrangler:error] Error: boom', 'GET is a verb'])
      expect(isAccessLogLine(line)).toBe(false);
  });
});

/** How the select's chosen option fits: its text's width in the select's font against the room inside. */
function selectTextFit(page: Page, name: string) {
  return page.locator(`select[name="${name}"]`).evaluate((el) => {
    const select = el as HTMLSelectElement;
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const text = select.selectedOptions[0]?.text ?? '';
    const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
    // Chromium draws the drop-down arrow inside the padding box: about 20 px at this font size.
    return {
      text,
      textWidth: context.measureText(text).width,
      room: select.clientWidth - padding - 20,
      scrollWidth: select.scrollWidth,
      clientWidth: select.clientWidth,
    };
  });
}
