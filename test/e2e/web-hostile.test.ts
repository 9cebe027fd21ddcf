// The run page in real Chromium, showing a run full of hostile text (test/support/hostile-run.ts)
// served by a fake stack with the built web app: no script runs, no tag or javascript: link is made,
// and a bidi override left open in a hint cannot flip the "(user)" label after it.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWebBuild } from '../../scripts/web-build.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { FakeRunServer } from '../support/fake-run-server.ts';
import { startFakeRunServer } from '../support/fake-run-server.ts';
import { HOSTILE_RUN_ID } from '../support/hostile-run.ts';
import { MARK } from '../support/hostile-text.ts';

const root = join(import.meta.dirname, '../..');
let fake: FakeRunServer;
let browser: Browser;

beforeAll(async () => {
  await ensureWebBuild(root);
  // Without the 1 MB payloads: the proxy cuts outputs long before that, and the page is not the place
  // that test is about (the CLI's and the archive's tests carry them).
  fake = await startFakeRunServer({ webOut: join(root, 'web/out'), small: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

/** Each character under `selector` (the last match) with its left edge on screen, in DOM order. */
function charEdges(page: Page, selector: string): Promise<{ ch: string; x: number }[]> {
  return page.evaluate((sel) => {
    const all = document.querySelectorAll(sel);
    const el = all[all.length - 1];
    if (!el) return [];
    const out: { ch: string; x: number }[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        out.push({ ch: node.data[i]!, x: range.getBoundingClientRect().left });
      }
    }
    return out;
  }, selector);
}

const ascending = (edges: { x: number }[]) => edges.every((e, i) => i === 0 || e.x > edges[i - 1]!.x);
const descending = (edges: { x: number }[]) => edges.every((e, i) => i === 0 || e.x < edges[i - 1]!.x);

describe('the run page with hostile text', () => {
  it('runs no script, makes no tag or link, and keeps "(user)" in order after an open override', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${fake.url}/run?id=${HOSTILE_RUN_ID}`);
    await page.waitForSelector('[data-event="run_complete"]', { timeout: 30_000 });
    // The hint "try cat readme U+202E" is followed by the "(user)" label: its characters run left to right.
    const label = await charEdges(page, '[data-event="user_action_resolved"] .muted');
    expect(label.map((e) => e.ch).join('')).toBe('(user)');
    expect(ascending(label), JSON.stringify(label)).toBe(true);
    const found = await page.evaluate(
      (mark) => ({
        scripts: [...document.querySelectorAll('script')].filter((s) => s.textContent?.includes(mark)).length,
        jsLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
        onerror: document.querySelectorAll('[onerror]').length,
        shownBidi: document.body.textContent.split('<U+202E>').length - 1,
        rawBidi: (document.body.textContent.match(/[\u202a-\u202e\u2066-\u2069]/g) ?? []).length,
      }),
      MARK,
    );
    // The transcript and the terminal render only the rows on screen: scrolled end to end, every row
    // they show meets the same rules, and the terminal shows the override as text.
    const scrolled = async (selector: string) =>
      page.locator(selector).evaluate(async (el) => {
        // Per row, so a row seen at two scroll positions counts once.
        const shown = new Map<string, number>();
        let raw = 0;
        for (let y = 0; y <= el.scrollHeight; y += Math.max(100, el.clientHeight / 2)) {
          el.scrollTop = y;
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          for (const row of el.querySelectorAll<HTMLElement>(':scope > [data-vkey]')) {
            const text = row.textContent ?? '';
            shown.set(row.dataset.vkey!, text.split('<U+202E>').length - 1);
            raw += (text.match(/[\u202a-\u202e\u2066-\u2069]/g) ?? []).length;
          }
        }
        return { shown: [...shown.values()].reduce((a, b) => a + b, 0), raw };
      });
    const terminal = await scrolled('.terminal');
    const chat = await scrolled('.chat-log');
    Object.assign(found, {
      terminalShown: terminal.shown > 0,
      shownBidi: Math.max(found.shownBidi, chat.shown + terminal.shown),
      rawBidi: found.rawBidi + terminal.raw + chat.raw,
    });
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(found).toMatchObject({ scripts: 0, jsLinks: 0, onerror: 0, rawBidi: 0, terminalShown: true });
    expect(found.shownBidi).toBeGreaterThan(10);

    // The measurement would see a flip: the same text, raw and not isolated, lays "(user)" out right to left.
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'control';
      p.append('try cat readme \u202e', Object.assign(document.createElement('span'), { textContent: '(user)' }));
      document.body.append(p);
    });
    expect(descending(await charEdges(page, '#control span'))).toBe(true);
    await screenshot(page, 'run-page-hostile');
    await page.close();
  });
});
