// The web UI in real Chromium against the real stack (wrangler dev + proxy + range, baseline model):
// start a run from the form, watch commands arrive, answer the modal with a hint, get it again, see a
// second tab close its modal when the first answers, reload mid-run without duplicates, stop, and
// have a refused answer explained. Screenshots of each step land in test-results/screenshots.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';
const WAIT = { timeout: 60_000 };
/** Event types the chat leaves out (they feed the counters and the terminal instead). */
const NOT_IN_CHAT = new Set(['node', 'llm_call', 'run_created', 'terminal_output']);

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-web-'));
let stack: StackProcess;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStackProcess(stateDir), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

/** The run's log as the API serves it. */
const eventsOf = async (runId: string) =>
  ((await (await fetch(`${stack.url}/api/runs/${runId}/events?limit=1000`)).json()) as { events: RunEvent[] }).events;

/** The level the open pause dialog asks about, or 'closed': read at one instant, in the page. */
const askedLevel = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelector<HTMLDialogElement>('dialog[data-testid="user-action-modal"][open]')?.dataset.level ??
      'closed',
  );

/** What the chat holds (it renders only the rows on screen): its entry count, last seq and the seqs shown. */
const chatSeqs = async (page: Page) => {
  const list = page.locator('ol.chat-log');
  const shown = await list
    .locator(':scope > li[data-seq]')
    .evaluateAll((items) => items.map((li) => Number(li.getAttribute('data-seq'))));
  expect(new Set(shown).size).toBe(shown.length);
  return {
    count: Number(await list.getAttribute('data-count')),
    last: Number(await list.getAttribute('data-last-seq')),
  };
};

describe('the web UI', () => {
  it('runs a run from the form to a stop, with the modal in every tab', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(stack.url);
    await expect(page.getByRole('heading', { name: 'bandit-runner' }).isVisible()).resolves.toBe(true);
    await page.getByRole('heading', { name: 'Start a run' }).waitFor(WAIT);
    await screenshot(page, '01-runs-page');

    // The form checks with the API's own schema before sending anything.
    await page.getByLabel('Max retries').fill('0');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.getByText('Max retries must be at least 1').waitFor(WAIT);
    expect(await page.getByLabel('Max retries').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, '02-form-validation');

    // This test's run plays at full speed; a first run is paced by default (test/e2e/first-run.test.ts).
    await page.getByLabel('Watch at a readable pace').setChecked(false);
    await page.getByLabel('Max retries').fill('1');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/run\?id=run_[0-9a-z]+$/, WAIT);
    const runUrl = page.url();
    const runId = new URL(runUrl).searchParams.get('id')!;

    // Commands arrive, the terminal shows them, and the first pause opens the modal with focus in it.
    await page.locator('[data-event="command"]').first().waitFor(WAIT);
    await page.locator('.terminal .term-prompt').first().waitFor(WAIT);
    const modal = page.getByRole('dialog', { name: 'The run needs you' });
    await modal.waitFor(WAIT);
    expect(await modal.textContent()).toContain('used all 1 attempt on level 13');
    // The troubleshooting card, in the dialog and on the page, from the one taxonomy.
    expect(await modal.locator('.trouble-card').getAttribute('data-failure')).toMatch(/^(max_retries|budget_spent)$/);
    expect(await page.locator('main > .trouble-card .trouble-evidence li').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Continue');
    expect(await page.locator('[data-status]').first().getAttribute('data-status')).toBe('paused_for_user_action');
    await screenshot(page, '03-first-pause-modal');

    // A second tab opens on the paused run and shows the same question, from the snapshot. Its socket
    // goes through a route that can hold back the server's messages later on.
    const second = await context.newPage();
    let frozen = false;
    await second.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => !frozen && ws.send(m));
      ws.onMessage((m) => server.send(m));
    });
    await second.goto(runUrl);
    const secondModal = second.getByRole('dialog', { name: 'The run needs you' });
    await secondModal.waitFor(WAIT);

    // The first tab answers with a hint; both modals close.
    await modal.getByRole('button', { name: 'Continue with hint' }).click();
    await modal.getByLabel(/Hint for the agent/).fill(HINT);
    await modal.getByRole('button', { name: 'Send hint and continue' }).click();
    // The answer closes level 13's question in both tabs. The run may ask its next one (level 16) within
    // ~50 ms, less than Playwright's 500 ms polling, so "closed" alone is a moment a check can miss.
    await Promise.all([page, second].map((tab) => expect.poll(() => askedLevel(tab), WAIT).not.toBe('13')));
    await screenshot(second, '04-second-tab-closed');
    // The answer is in the chat. With the hint the agent may leave level 13 at once, and a level left
    // is folded to one line, so the answer is reached as a reader reaches it: by a link to its event.
    let resolvedSeq: number | undefined;
    await expect
      .poll(
        async () => (resolvedSeq = (await eventsOf(runId)).find((e) => e.type === 'user_action_resolved')?.seq),
        WAIT,
      )
      .toBeDefined();
    await page.evaluate((seq) => {
      window.location.hash = `#seq-${seq}`;
    }, resolvedSeq);
    await page.locator(`#seq-${resolvedSeq}[data-event="user_action_resolved"]`).waitFor(WAIT);
    // Back to the run's own address: a page opened on a link stays where it was sent, not at the latest event.
    await page.goto(runUrl);

    // The hint gets the agent through level 13 to the next pause (level 16).
    await modal.waitFor(WAIT);
    expect(await modal.textContent()).toContain('level 16');
    await secondModal.waitFor(WAIT);
    await screenshot(page, '05-second-pause-modal');

    // Reload mid-run: the same history, each event once.
    const before = await chatSeqs(page);
    await page.reload();
    await modal.waitFor(WAIT);
    const after = await chatSeqs(page);
    expect(after).toEqual(before);
    const events = await eventsOf(runId);
    expect(after).toEqual({
      count: events.filter((e) => !NOT_IN_CHAT.has(e.type)).length,
      last: events.at(-1)?.seq,
    });
    expect(await page.locator('.level-solved').count()).toBe(16);
    await screenshot(page, '06-after-reload');

    // A wrong password is tried by logging in as the next level, refused, and the question comes back
    // with the reason.
    await modal.getByRole('button', { name: 'Provide password' }).click();
    await modal.getByLabel('Password for bandit17').fill('A'.repeat(32));
    await modal.getByRole('button', { name: 'Try this password' }).click();
    // Level 13's answer is folded away with its level now; this one is the open level's.
    await page.locator('[data-event="user_action_resolved"]', { hasText: 'gave a password' }).waitFor(WAIT);
    await modal.getByText('the password you gave was refused (login as bandit17 failed)').waitFor(WAIT);
    await screenshot(page, '06b-wrong-password');

    // The second tab stops hearing the run; the first stops it; the second's answer is refused, in words.
    frozen = true;
    await modal.getByRole('button', { name: 'Stop' }).click();
    await modal.getByRole('button', { name: 'Yes, stop the run' }).click();
    await modal.waitFor({ state: 'hidden', ...WAIT });
    await page.locator('[data-event="run_complete"]').waitFor(WAIT);
    expect(await page.locator('.run-header [data-status]').getAttribute('data-status')).toBe('stopped');
    expect(await page.locator('main > .trouble-card').getAttribute('data-failure')).toBe('stopped');
    await screenshot(page, '07-stopped');
    await secondModal.getByRole('button', { name: 'Continue', exact: true }).click();
    await secondModal.getByRole('alert').waitFor(WAIT);
    expect(await secondModal.getByRole('alert').textContent()).toMatch(/did not take this answer: .*stopped/);
    await screenshot(second, '08-refused-answer');

    // The runs page lists it as stopped.
    await page.goto(stack.url);
    const row = page.locator(`tr[data-run="${runId}"]`);
    await row.waitFor(WAIT);
    expect(await row.locator('[data-status]').getAttribute('data-status')).toBe('stopped');
    await screenshot(page, '09-runs-list');
    await context.close();
  });

  it('fits a phone screen and renders a finished run from its history', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(stack.url);
    const link = page.locator('.runs-table a').first();
    await link.waitFor(WAIT);
    await link.click();
    await page.locator('[data-event="run_complete"]').waitFor(WAIT);
    expect(await page.locator('[data-connection]').getAttribute('data-connection')).toBe('live');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, '10-phone-finished-run');
    await context.close();
  });
});
