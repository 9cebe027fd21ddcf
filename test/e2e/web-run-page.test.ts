// The run page of a long run in real Chromium, served by a loopback server speaking the worker's protocol
// (test/support/long-run-server.ts): a #seq-N link opens its level at the event, other levels are one
// line each with their figures, only what is on screen is in the DOM, the search and the level boxes
// jump to events, binary output shows as an escaped preview with its byte count, and after a stop past
// the last level the strip keeps to the run's range and the live dot says the run ended.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web-build.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { LongRunServer } from '../support/long-run-server.ts';
import { startLongRunServer } from '../support/long-run-server.ts';
import { LONG_RUN_END_LEVEL } from '../support/long-run.ts';

const WAIT = { timeout: 30_000 };
const root = join(import.meta.dirname, '../..');
let server: LongRunServer;
let browser: Browser;
beforeAll(async () => {
  await ensureWebBuild(root);
  [server, browser] = await Promise.all([startLongRunServer(join(root, 'web/out'), 3000), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Whether the element's top is inside its scrolling list's box: on screen, not only in the DOM. */
const onScreen = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const list = (el.closest('.chat-log') ?? el.parentElement)!.getBoundingClientRect();
    return box.top >= list.top - 1 && box.top < list.bottom;
  });

const commandAt = (level: number) => {
  const event = server.log.events.find((e) => e.type === 'command' && e.level === level);
  if (!event) throw new Error(`the long run has no command at level ${level}`);
  return event.seq;
};

describe('the run page of a long run', () => {
  it('opens a #seq-N link at its event, folds the other levels, and renders only what is on screen', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const seq = commandAt(3);
    await page.goto(server.runUrl(`#seq-${seq}`));
    await page.locator('[data-fold-level="3"][data-open="true"]').waitFor(WAIT);
    await page.locator(`#seq-${seq}.entry-focus`).waitFor(WAIT);
    await expect.poll(() => onScreen(page, `#seq-${seq}`), WAIT).toBe(true);
    // The level before is one line with its outcome, attempts, time and cost; it opens on click.
    const folded = page.locator('[data-fold-level="2"]');
    expect(await folded.getAttribute('data-open')).toBe('false');
    expect(await folded.textContent()).toMatch(
      /Level 2 solved \(more attempts\) · \d+ attempts · \d+s · \$[\d.]+ · \d+ entries/,
    );
    await folded.locator('button').click();
    await page.locator('[data-fold-level="2"][data-open="true"]').waitFor(WAIT);
    // Thousands of entries in the log, a few dozen in the DOM.
    const list = page.locator('ol.chat-log');
    expect(Number(await list.getAttribute('data-count'))).toBeGreaterThan(2000);
    expect(await page.locator('ol.chat-log > li[data-vkey]').count()).toBeLessThan(200);
    expect(await page.locator('pre.terminal > [data-vkey]').count()).toBeLessThan(300);
    await screenshot(page, 'run-page-folded-levels');

    // A search hit opens its level at the event; so does a level's box in the strip.
    const far = commandAt(20);
    const text = server.log.events.find((e) => e.seq === far);
    await page.getByLabel('Search commands, outputs and thinking').fill(text?.type === 'command' ? text.command : '');
    await page.locator(`[data-hit-seq="${far}"]`).click();
    await page.locator('[data-fold-level="20"][data-open="true"]').waitFor(WAIT);
    await expect.poll(() => onScreen(page, `#seq-${far}`), WAIT).toBe(true);
    await page.locator('.level-strip li[data-level="10"] button').click();
    await page.locator('[data-fold-level="10"][data-open="true"]').waitFor(WAIT);
    await expect.poll(() => onScreen(page, '[data-fold-level="10"]'), WAIT).toBe(true);
    await page.close();
  });

  it('shows binary output as its size and an escaped preview, and a stop past the last level as ended', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.runUrl());
    await page.locator(`#seq-${server.log.lastSeq}`).waitFor(WAIT);
    expect(await page.locator('[data-connection]').getAttribute('data-connection')).toBe('live');
    expect(await page.locator('[data-run-ended]').count()).toBe(0);

    await server.send(server.log.binary());
    const note = page.locator('pre.terminal .term-note', { hasText: 'binary output' });
    await note.waitFor(WAIT);
    expect(await note.textContent()).toMatch(/^# binary output, [\d,]+ bytes: \\x7fELF\\x02\\x01\\x01\\x00.*…\n$/);
    const terminal = (await page.locator('pre.terminal').textContent()) ?? '';
    expect(terminal).not.toMatch(/[\u0000-\u0008\u000e-\u001f\u007f\ufffd]/);
    const chatOutput = page.locator(`#seq-${server.log.lastSeq}`);
    expect(await chatOutput.textContent()).toContain('binary output,');

    // Every level proved, the last one's next level is 33 (past the range 0–32), then a stop.
    while (server.log.currentLevel < LONG_RUN_END_LEVEL) await server.send(server.log.solve());
    await server.send(server.log.solve());
    await server.send(server.log.stop());
    await page.locator('[data-event="run_complete"]').waitFor(WAIT);
    const dot = page.locator('[data-run-ended="true"]');
    await dot.waitFor(WAIT);
    expect(await dot.textContent()).toBe('run ended');
    expect(await dot.getAttribute('class')).not.toContain('connection-live');
    const strip = page.locator('ol.level-strip');
    expect(await strip.getAttribute('aria-label')).toBe(
      `Levels 0 to ${LONG_RUN_END_LEVEL}: ${LONG_RUN_END_LEVEL + 1} solved, the run has ended`,
    );
    expect(await strip.locator('li').count()).toBe(LONG_RUN_END_LEVEL + 1);
    expect(await strip.locator('li[data-state="current"]').count()).toBe(0);
    await screenshot(page, 'run-page-stopped-long-run');
    await page.close();
  });
});
