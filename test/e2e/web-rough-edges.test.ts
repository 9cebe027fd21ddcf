// The rough edges a new user met in the web UI, each in real Chromium on the real stack (baseline):
// a run started at level 2 asks for bandit2's password (not bandit3's) and, once it ends while watched,
// offers Verify without a reload; Stop asks before it stops, in the header and in the pause dialog;
// the answer is credited to "the web UI"; and no page logs an error or a failed request (a favicon 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildWorld } from '../../practice/world/world.ts';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents, apiJson } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const SEED = 'web-rough-edges-seed';
const WAIT = { timeout: 90_000 };
const stack = stackForFile('web-rough-edges', { PRACTICE_SEED: SEED });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const startRun = (config: Record<string, unknown>) =>
  apiJson<RunSummary>(stack().url, '/api/runs', { method: 'POST', body: JSON.stringify(config) });
const runOf = (id: string) => apiJson<RunSummary>(stack().url, `/api/runs/${id}`);

/** Every console error, uncaught exception and failed request (status ≥ 400) the page sees. */
function troubleOf(page: Page): string[] {
  const trouble: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') trouble.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => trouble.push(`exception: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) trouble.push(`${r.status()} ${r.url()}`);
  });
  return trouble;
}

describe('the rough edges of the web UI', () => {
  it("asks a run started at level 2 for bandit2's password, then offers Verify once it ends", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const trouble = troubleOf(page);
    await page.goto(stack().url);
    await page.getByRole('heading', { name: 'Start a run' }).waitFor(WAIT);
    // The page links its icon; the icon itself is served.
    expect(await page.locator('link[rel="icon"]').first().getAttribute('href')).toMatch(/^\/favicon\./);
    expect((await fetch(`${stack().url}/favicon.ico`)).status).toBe(200);

    const run = await startRun({ startLevel: 2, endLevel: 3, model: 'baseline', maxRetries: 1 });
    await page.goto(`${stack().url}/run?id=${run.id}`);
    const modal = page.getByRole('dialog', { name: 'The run needs you' });
    await modal.waitFor(WAIT);
    expect(await modal.locator('[data-reason]').getAttribute('data-reason')).toBe('password_required');
    // The page opened while the run waited; Verify needs a solved level, and there is none yet.
    expect(await page.getByRole('button', { name: /^Verify/ }).count()).toBe(0);
    await modal.getByRole('button', { name: 'Provide password' }).click();
    const field = modal.getByLabel('Password for bandit2');
    await field.waitFor(WAIT);
    await screenshot(page, 'edges-01-start-password');
    await field.fill(buildWorld(SEED).passwords[2]!);
    await modal.getByRole('button', { name: 'Try this password' }).click();

    // Levels 2 and 3 fall and the run completes while this page watches: Verify comes without a reload.
    await page.locator('.run-header [data-status="completed"]').waitFor(WAIT);
    await page.getByRole('button', { name: /^Verify/ }).waitFor(WAIT);
    expect((await runOf(run.id)).levelsSolved).toBe(2);
    const answers = (await allEvents(stack().url, run.id)).filter((e) => e.type === 'user_action_resolved');
    expect(answers).toEqual([expect.objectContaining({ action: 'password', by: 'the web UI' })]);
    expect(await page.locator('[data-event="user_action_resolved"]').textContent()).toContain('the web UI');
    await screenshot(page, 'edges-02-verify-after-end');
    expect(trouble).toEqual([]);
    await page.close();
  });

  it('asks before Stop stops, in the header and in the pause dialog', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const trouble = troubleOf(page);
    const run = await startRun({ startLevel: 0, endLevel: 20, model: 'baseline', maxRetries: 1 });
    await page.goto(`${stack().url}/run?id=${run.id}`);
    const modal = page.getByRole('dialog', { name: 'The run needs you' });
    await modal.waitFor(WAIT);

    // In the dialog: the first click asks; "Keep it" takes the question back and the run keeps waiting.
    await modal.getByRole('button', { name: 'Stop', exact: true }).click();
    const confirm = modal.getByRole('group', { name: 'Confirm stop' });
    await confirm.waitFor(WAIT);
    expect(await confirm.textContent()).toContain('Stop this run for good?');
    await screenshot(page, 'edges-03-stop-confirm');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await modal.getByRole('button', { name: 'Stop', exact: true }).waitFor(WAIT);
    expect((await runOf(run.id)).status).toBe('paused_for_user_action');

    // In the header, with the dialog set aside: the same two steps.
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden', ...WAIT });
    await page.getByRole('button', { name: 'Stop run' }).click();
    const headerConfirm = page.locator('.run-header').getByRole('group', { name: 'Confirm stop' });
    await headerConfirm.waitFor(WAIT);
    expect((await runOf(run.id)).status).toBe('paused_for_user_action');
    await headerConfirm.getByRole('button', { name: 'Yes, stop the run' }).click();
    await page.locator('.run-header [data-status="stopped"]').waitFor(WAIT);
    const events = await allEvents(stack().url, run.id);
    expect(events.filter((e) => e.type === 'user_action_resolved')).toEqual([
      expect.objectContaining({ action: 'stop', by: 'the web UI' }),
    ]);
    expect(events.find((e) => e.type === 'run_complete')).toMatchObject({ reason: 'stopped by the web UI' });
    expect(trouble).toEqual([]);
    await page.close();
  });
});
