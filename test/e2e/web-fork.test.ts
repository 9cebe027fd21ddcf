// Forking from the run page against the real stack in Chromium (issue 32): a baseline run paused at level 13
// (max retries) is forked from its pause dialog with a hint; the page moves to the new run, which links its
// parent's step, and the parent's page lists the fork. The fork's log is the parent's up to the pause. A step
// in the parent's timeline forks too.

import { describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../schema/run.ts';
import { browserForFile, screenshot } from '../support/browser.ts';
import { allEvents, apiJson } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const stack = stackForFile('web-fork');
const browser = browserForFile();

const summary = (id: string) => apiJson<RunSummary>(stack().url, `/api/runs/${id}`);
const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';

describe('fork from the run page', () => {
  it('forks a paused run with a hint: the new page links its parent, the parent lists the fork', async () => {
    const run = await apiJson<RunSummary>(stack().url, '/api/runs', {
      method: 'POST',
      body: JSON.stringify({ model: 'baseline', maxRetries: 1, endLevel: 13 }),
    });
    await vi.waitFor(async () => expect((await summary(run.id)).status).toBe('paused_for_user_action'), {
      timeout: 90_000,
      interval: 200,
    });
    const parentEvents = await allEvents(stack().url, run.id);
    const pauseSeq = parentEvents.findLast((e) => e.type === 'user_action_required')?.seq ?? 0;
    const page = await (await browser().newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${stack().url}/run?id=${run.id}`);
    // The pause dialog opens by itself; "Fork from here" sets it aside and opens the fork form at the pause.
    const dialog = page.getByTestId('user-action-modal');
    await dialog.locator('[data-action="fork"]').click();
    const form = page.getByRole('form', { name: 'Fork this run' });
    await expect
      .poll(() => form.getByLabel('Step (event seq)').inputValue(), { timeout: 10_000 })
      .toBe(String(pauseSeq));
    await form.getByLabel(/^Hint/).fill(HINT);
    await form.getByRole('button', { name: 'Start the fork' }).click();
    await page.waitForURL((url) => url.searchParams.get('id') !== run.id, { timeout: 20_000 });
    const forkId = new URL(page.url()).searchParams.get('id') ?? '';
    const origin = page.locator('.fork-origin');
    await expect
      .poll(() => origin.textContent(), { timeout: 10_000 })
      .toContain(`Forked from ${run.id} at step ${pauseSeq}`);
    expect(await origin.locator('a').getAttribute('href')).toBe(`/run?id=${run.id}#seq-${pauseSeq}`);
    await screenshot(page, 'web-fork-child');
    // The fork answered the pause with the hint, as a person's hint would, and solved level 13 from there.
    expect(await summary(forkId)).toMatchObject({ parentId: run.id, forkSeq: pauseSeq });
    await vi.waitFor(async () => expect((await summary(forkId)).status).toBe('completed'), {
      timeout: 60_000,
      interval: 200,
    });
    expect((await summary(forkId)).levelsSolved).toBe(14);
    const forkEvents = await allEvents(stack().url, forkId);
    expect(forkEvents.slice(0, pauseSeq)).toEqual(parentEvents.slice(0, pauseSeq));
    expect(forkEvents.slice(pauseSeq, pauseSeq + 2)).toMatchObject([
      { type: 'forked', parentId: run.id, forkSeq: pauseSeq, changes: { hint: HINT } },
      { type: 'user_action_resolved', action: 'continue', hint: HINT, by: 'the web UI' },
    ]);
    // The parent is still paused, untouched; its page lists the fork with the step it starts from.
    expect((await summary(run.id)).status).toBe('paused_for_user_action');
    await page.goto(`${stack().url}/run?id=${run.id}`);
    const listed = page.locator(`[data-fork="${forkId}"]`);
    await expect.poll(() => listed.textContent(), { timeout: 10_000 }).toContain(`from step ${pauseSeq}`);
    await screenshot(page, 'web-fork-parent');
    // A step in the timeline: a node's fork link opens the form at that step; the fork starts there, queued.
    await page.keyboard.press('Escape'); // the pause dialog, open again on the parent's page
    await page.locator('.timeline summary').click();
    await page.getByRole('button', { name: 'Expand all' }).click();
    const stepLink = page.locator('.timeline a[data-action="fork"]').last();
    const stepSeq = Number((await stepLink.getAttribute('href'))?.replace('#fork-', ''));
    expect(stepSeq).toBeGreaterThan(1);
    expect(stepSeq).toBeLessThan(pauseSeq);
    await stepLink.click();
    await expect
      .poll(() => form.getByLabel('Step (event seq)').inputValue(), { timeout: 10_000 })
      .toBe(String(stepSeq));
    await form.getByRole('button', { name: 'Start the fork' }).click();
    await page.waitForURL((url) => ![run.id, forkId].includes(url.searchParams.get('id') ?? ''), { timeout: 20_000 });
    const stepFork = new URL(page.url()).searchParams.get('id') ?? '';
    expect(await summary(stepFork)).toMatchObject({ parentId: run.id, forkSeq: stepSeq });
    await apiJson(stack().url, `/api/runs/${stepFork}/actions`, {
      method: 'POST',
      body: JSON.stringify({ action: 'stop' }),
    });
    // The parent still waits; it is stopped.
    await apiJson(stack().url, `/api/runs/${run.id}/actions`, {
      method: 'POST',
      body: JSON.stringify({ action: 'stop' }),
    });
  }, 240_000);
});
