// Two real runs compared on a real stack: in Chromium, /compare?a=&b= shows each level's outcome for both
// runs, the first-difference sentence, and a level's link lands on the run page with that event in view;
// the form picks runs by id; the CLI prints the same comparison, and --json is the API's answer.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runComparisonSchema } from '../../schema/run-compare.ts';
import type { RunComparison } from '../../schema/run-compare.ts';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents, apiJson, runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };
const stack = stackForFile('compare');
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A baseline run of levels 0..endLevel, to its end. */
async function finishedRun(endLevel: number): Promise<string> {
  const run = await apiJson<RunSummary>(stack().url, '/api/runs', {
    method: 'POST',
    body: JSON.stringify({ model: 'baseline', endLevel, maxRetries: 1 }),
  });
  for (let i = 0; i < 600; i++) {
    const now = await apiJson<RunSummary>(stack().url, `/api/runs/${run.id}`);
    if (now.status === 'completed') return run.id;
    if (['failed', 'stopped', 'paused_for_user_action'].includes(now.status))
      throw new Error(`run ${run.id} ended ${now.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${run.id} did not complete`);
}

/** Whether the element is inside the page's viewport. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
  });
}

describe('compare two runs', () => {
  let longer: string;
  let shorter: string;
  beforeAll(async () => {
    [longer, shorter] = await Promise.all([finishedRun(4), finishedRun(2)]);
  });

  it('shows each level for both runs, the first difference, and links each level to its events', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${stack().url}/compare?a=${longer}&b=${shorter}`);
    const rows = page.locator('.compare-table tbody tr');
    await rows.first().waitFor(WAIT);
    const outcomes = await rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.getAttribute('data-level'),
        tr.querySelector('[data-side="a"]')?.getAttribute('data-outcome'),
        tr.querySelector('[data-side="b"]')?.getAttribute('data-outcome'),
        tr.getAttribute('data-same'),
      ]),
    );
    expect(outcomes).toEqual([
      ['0', 'solved_alone', 'solved_alone', 'true'],
      ['1', 'solved_alone', 'solved_alone', 'true'],
      ['2', 'solved_alone', 'solved_alone', 'true'],
      ['3', 'solved_alone', 'none', 'false'],
      ['4', 'solved_alone', 'none', 'false'],
    ]);
    expect(await rows.nth(3).textContent()).toContain('not reached');
    // Figures read the same on the levels both played (a few ms apart is "0s" in both): none is marked.
    expect(await page.locator('.compare-table td.differs').count()).toBe(0);
    // The words a person reads: the run page's outcome labels.
    expect(await rows.nth(0).locator('[data-side="a"] .level').textContent()).toBe('alone');

    const sentence = page.locator('.compare-difference');
    expect(await sentence.getAttribute('data-difference')).toBe('found');
    const events = await allEvents(stack().url, longer);
    const firstAt3 = events.find((e) => e.type === 'command' && e.level === 3);
    expect(firstAt3?.type).toBe('command');
    const command = firstAt3?.type === 'command' ? firstAt3.command : '';
    expect(await sentence.textContent()).toBe(
      `The runs first differ at level 3, step 1: A ran \`${command}\`; B had no more steps.`,
    );
    expect(await sentence.locator('a').getAttribute('href')).toBe(`/run?id=${longer}#seq-${firstAt3?.seq}`);
    // The heads name both runs, each a link to its page.
    expect(await page.locator('.compare-head[data-side="A"] h2 a').getAttribute('href')).toBe(`/run?id=${longer}`);
    expect(await page.locator('.compare-head[data-side="B"] h2 a').getAttribute('href')).toBe(`/run?id=${shorter}`);
    await screenshot(page, '40-compare');

    // Level 3's link to run A's events lands on its level_started, scrolled into view.
    const started3 = events.find((e) => e.type === 'level_started' && e.level === 3)!;
    const link = rows.nth(3).locator('a[data-link="A"]');
    expect(await link.getAttribute('href')).toBe(`/run?id=${longer}#seq-${started3.seq}`);
    expect(await rows.nth(3).locator('a[data-link="B"]').count()).toBe(0);
    await link.click();
    await page.waitForURL(`**/run?id=${longer}#seq-${started3.seq}`, WAIT);
    const target = `#seq-${started3.seq}.entry-focus`;
    await page.locator(target).waitFor(WAIT);
    expect(await page.locator(target).getAttribute('data-event')).toBe('level_started');
    expect(await inView(page, target)).toBe(true);
    // The run page offers to compare it with another.
    expect(await page.getByRole('link', { name: 'Compare with…' }).getAttribute('href')).toBe(`/compare?a=${longer}`);
    await page.close();
  });

  it('says two runs of the same path have no difference, from the form and the nav', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack().url}/`);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Compare' }).click();
    await page.waitForURL('**/compare', WAIT);
    await page.getByLabel('Run A').fill(shorter);
    await page.getByLabel('Run B').fill(shorter);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(`**/compare?a=${shorter}&b=${shorter}`, WAIT);
    const sentence = page.locator('.compare-difference[data-difference="none"]');
    await sentence.waitFor(WAIT);
    expect(await sentence.textContent()).toMatch(/^No difference/);
    expect(await page.locator('.compare-table tbody tr[data-same="true"]').count()).toBe(3);
    await page.close();
  });

  it("shows a person's hostile message, where the runs part, as text", async () => {
    const hostile = `<img src=x onerror="window.__pwned=1"> \u202Egnp.exe`;
    // A paced run is still going when the message comes; the baseline reads it and goes on its way.
    const run = await apiJson<RunSummary>(stack().url, '/api/runs', {
      method: 'POST',
      body: JSON.stringify({ model: 'baseline', endLevel: 2, maxRetries: 1, paceMs: 300 }),
    });
    await apiJson(stack().url, `/api/runs/${run.id}/actions`, {
      method: 'POST',
      body: JSON.stringify({ action: 'message', text: hostile }),
    });
    const page = await browser.newPage();
    await page.goto(`${stack().url}/compare?a=${shorter}&b=${run.id}`);
    const link = page.locator(`.compare-difference a[href^="/run?id=${run.id}#"]`);
    await link.waitFor(WAIT);
    expect(await link.textContent()).toBe(`a person acted: message: ${hostile.replace('\u202E', '<U+202E>')}`);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.compare-difference img').count()).toBe(0);
    await page.close();
  });

  it('says which run is unknown', async () => {
    const page = await browser.newPage();
    const unknown = 'run_0zzzzzzzzzzzzzzzzzzzzzzzzz';
    await page.goto(`${stack().url}/compare?a=${shorter}&b=${unknown}`);
    const alert = page.locator('p.problem[role="alert"]');
    await alert.waitFor(WAIT);
    expect(await alert.textContent()).toContain(`no run with id "${unknown}"`);
    await page.close();
  });

  it('prints the same comparison from the CLI, and --json is the API answer', async () => {
    const text = await runCli(stack().url, ['compare', longer, shorter]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toContain(longer);
    expect(lines.filter((l) => l.startsWith('≠ L'))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(
      /^The runs first differ at level 3, step 1: A ran `.+` \(seq \d+\); B had no more steps\.$/,
    );

    const json = await runCli(stack().url, ['compare', longer, shorter, '--json']);
    expect(json.code).toBe(0);
    const api = await apiJson<RunComparison>(stack().url, `/api/compare?a=${longer}&b=${shorter}`);
    expect(runComparisonSchema.parse(JSON.parse(json.stdout))).toEqual(api);

    const unknown = await runCli(stack().url, ['compare', longer, 'run_0zzzzzzzzzzzzzzzzzzzzzzzzz']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no run with id "run_0zzzzzzzzzzzzzzzzzzzzzzzzz"/);
    const bad = await runCli(stack().url, ['compare', longer, 'not-a-run']);
    expect(bad.code).toBe(2);
  });
});
