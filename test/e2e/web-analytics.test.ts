// The Analytics page in Chromium on a real stack whose D1 holds a hand-worked fixture
// (test/fixtures/analytics.sql, loaded with `wrangler d1 execute` before the stack starts): the
// headline figures, the per-model report, the heat map, failures with their fixes and slow
// executions show the numbers worked out by hand, and the charts are drawn.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_CLASSES } from '../../schema/failures.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';
import { seedMigratedState } from '../support/migrated-state.ts';

const root = join(import.meta.dirname, '../..');
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const WAIT = { timeout: 60_000 };
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-analytics-'));
let stack: StackProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const d1 = ['--local', '--persist-to', join(stateDir, 'wrangler')];
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
  seedMigratedState(stateDir);
  execFileSync(
    process.execPath,
    [wrangler, 'd1', 'execute', 'DB', ...d1, '--file', join(root, 'test/fixtures/analytics.sql')],
    { cwd: root, env, stdio: 'ignore' },
  );
  [stack, browser] = await Promise.all([startStackProcess(stateDir), launchChromium()]);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${stack.url}/analytics`);
  await page.getByTestId('summary').waitFor(WAIT);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const rows = (testId: string) =>
  page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));

describe('the Analytics page', () => {
  it('shows the headline figures worked out by hand', async () => {
    const tile = async (name: string) => (await page.locator(`[data-tile="${name}"] dd`).allTextContents()).join(' | ');
    expect(await tile('runs')).toBe('3');
    // Levels: fixture-a 3 of 4 (one after help), fixture-b 0 of 1.
    expect(await tile('levels solved')).toBe('3 / 5 | 60% solve rate');
    expect(await tile('solved with help')).toBe('1 | after a hint or a password');
    // Tokens from the level roll-ups: prompt 750, completion 135.
    expect(await tile('tokens')).toBe('885 | 135 completion');
    // Six calls, one timed out; latencies 7, 10, 20, 30, 40, 100: nearest rank p50 is the 3rd, p95 and p99 the 6th.
    expect(await tile('model calls')).toBe('6 | 16.7% failed');
    expect(await tile('latency p50')).toBe('20 ms');
    expect(await tile('latency p95 / p99')).toBe('100 ms / 100 ms');
  });

  it('reports each model: solves alone and with help, tokens, calls and latency', async () => {
    expect(await rows('models')).toEqual([
      ['fixture-a', '2', '3 / 4', '2', '1', '75%', '830', '$0.07', '5', '20%', '30', '100', '100'],
      ['fixture-b', '1', '0 / 1', '0', '0', '0%', '55', '$0.0050', '1', '0%', '7', '7', '7'],
    ]);
  });

  it('draws the models × levels heat map with the help given', async () => {
    const cell = (key: string) => page.locator(`[data-cell="${key}"]`).textContent();
    expect(await cell('fixture-a/0')).toBe('2/2');
    expect(await cell('fixture-a/1')).toBe('1/2+1h');
    expect(await cell('fixture-b/0')).toBe('0/1');
    expect(await page.locator('[data-cell="fixture-b/1"]').count()).toBe(0);
  });

  it("lists the failures with their fixes and links, and the slow executions with the model's share", async () => {
    const classes = await page.getByTestId('failure-classes').locator('li').allTextContents();
    expect(classes).toEqual([
      `node_error × 1 — ${FAILURE_CLASSES.run_failed.fix}`,
      `timeout × 1 — ${FAILURE_CLASSES.model_timeout.fix}`,
    ]);
    const failures = await rows('failures');
    expect(failures.map((r) => r.slice(1))).toEqual([
      ['node_error', 'validate', 'fixture-b', '0', 'node "validate" failed: boom', '#9'],
      ['timeout', 'plan', 'fixture-a', '0', 'the model did not answer within 60 s', '#5'],
    ]);
    expect(await page.getByTestId('failures').locator('a').first().getAttribute('href')).toBe(
      '/run?id=run_fixture0000000000000003#seq-9',
    );
    // R2's plan node made the 40 and 100 ms calls; R1's the 10, 20 and 30 ms ones.
    expect((await rows('slow')).map((r) => [r[0], r[3], r[4], r[5]])).toEqual([
      ['plan', '7,000 ms', '140 ms', '6,860 ms'],
      ['plan', '6,000 ms', '60 ms', '5,940 ms'],
    ]);
  });

  it('draws the charts, and narrows every figure to one model', async () => {
    await page.locator('.chart[data-ready="true"]').nth(3).waitFor(WAIT);
    expect(await page.locator('.chart[data-ready="true"] canvas').count()).toBe(4);
    await screenshot(page, '13-analytics');
    await page.getByLabel('Model', { exact: true }).selectOption('fixture-b');
    await expect.poll(() => page.locator('[data-tile="runs"] dd').first().textContent(), WAIT).toBe('1');
    expect((await rows('models')).map((r) => r[0])).toEqual(['fixture-b']);
    expect(await page.getByTestId('failures').locator('tbody tr').count()).toBe(1);
    await screenshot(page, '13-analytics-one-model');
  });
});
