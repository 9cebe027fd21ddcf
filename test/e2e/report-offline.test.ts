// report.html opens offline: a real baseline run on the real stack (wrangler dev + proxy + range), its
// report taken from the archive and from GET /api/runs/:id/report.html, each written to a file and
// opened as file:// in Chromium with the network off and every request but the file's own aborted.
// Nothing is requested; the summary, each level's outcome, the transcript, one timeline bar per level
// and the replay (played at speed) show the run. A hostile run's report runs no script of its payloads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOME_TEXT } from '../../schema/level-outcome.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { REPORT_CSP } from '../../worker/artifacts/report-markup.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents } from '../support/cli-process.ts';
import { hostileArchive } from '../support/hostile-run.ts';
import { MARK } from '../support/hostile-text.ts';
import { stackForFile } from '../support/stack-process.ts';

const stack = stackForFile('report-offline');
const dir = mkdtempSync(join(tmpdir(), 'bandit-runner-report-'));
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${stack().url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The report written to a file and opened in a fresh offline context; `requests` lists every other URL asked for. */
async function openOffline(
  name: string,
  html: string,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const file = join(dir, name);
  writeFileSync(file, html);
  const url = pathToFileURL(file).href;
  const context = await browser.newContext(options);
  await context.setOffline(true);
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('request', (request) => {
    if (request.url() !== url) requests.push(request.url());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url);
  return { page, requests, errors };
}

/** Plays the replay at the highest speed to its end and returns the screen's text. */
async function playToEnd(page: Page): Promise<string> {
  await page.selectOption('#replay-speed', '100');
  await page.click('#replay-play');
  await page.waitForFunction(
    () => {
      const clock = document.getElementById('replay-clock')?.textContent ?? '';
      const [at, total] = clock.split(' / ').map((s) => Number.parseFloat(s));
      return at !== undefined && total !== undefined && at >= total;
    },
    undefined,
    { timeout: 60_000 },
  );
  return (await page.locator('#replay-screen').textContent()) ?? '';
}

describe('report.html offline', () => {
  let run: RunSummary;
  let events: RunEvent[];

  it('records a baseline run of levels 0-4', async () => {
    const created = await api<RunSummary>('/api/runs', {
      method: 'POST',
      body: JSON.stringify({ startLevel: 0, endLevel: 4, maxRetries: 1 }),
    });
    for (const until = Date.now() + 120_000; ; ) {
      run = await api<RunSummary>(`/api/runs/${created.id}`);
      if (run.status === 'completed') break;
      if (Date.now() > until || ['failed', 'stopped'].includes(run.status)) throw new Error(`run is ${run.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    events = await allEvents(stack().url, run.id);
    expect(run.levelsSolved).toBe(5);
  }, 150_000);

  it('serves the report with its headers, redacted unless asked', async () => {
    const response = await fetch(`${stack().url}/api/runs/${run.id}/report.html`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="${run.id}-report.html"`);
    expect(response.headers.get('content-security-policy')).toBe(REPORT_CSP);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const html = await response.text();
    const passwords = events.flatMap((e) => (e.type === 'password_found' ? [e.password] : []));
    expect(passwords).toHaveLength(5);
    for (const password of passwords) expect(html).not.toContain(password);
    const included = await (await fetch(`${stack().url}/api/runs/${run.id}/report.html?secrets=include`)).text();
    for (const password of passwords) expect(included).toContain(password);
  });

  for (const from of ['archive', 'route'] as const)
    it(`opens the ${from}'s report as a file with the network off, asks for nothing and shows the run`, async () => {
      let html: string;
      if (from === 'route') html = await (await fetch(`${stack().url}/api/runs/${run.id}/report.html`)).text();
      else {
        const zip = unzipSync(
          new Uint8Array(await (await fetch(`${stack().url}/api/runs/${run.id}/artifacts`)).arrayBuffer()),
        );
        expect(zip['report.html']).toBeDefined();
        html = new TextDecoder().decode(zip['report.html']);
      }
      const { page, requests, errors } = await openOffline(`${from}.html`, html);
      expect(await page.locator('[data-field="model"]').textContent()).toBe('baseline');
      expect(await page.locator('[data-field="solved"]').textContent()).toBe('5');
      for (const level of [0, 1, 2, 3, 4]) {
        const row = page.locator(`#levels tr[data-level="${level}"]`);
        expect(await row.getAttribute('data-outcome')).toBe('solved_alone');
        expect(await row.locator('td').nth(1).textContent()).toBe(OUTCOME_TEXT.solved_alone.label);
      }
      // The transcript holds a command the run ran (collapsed, yet in the page), and opens on a click.
      const command = events.find((e): e is Extract<RunEvent, { type: 'command' }> => e.type === 'command');
      expect(command).toBeDefined();
      // The level's number in the table opens its transcript block.
      const level0 = page.locator('#transcript details[data-level="0"]');
      expect(await level0.getAttribute('open')).toBeNull();
      await page.locator('#levels tr[data-level="0"] a').click();
      await expect.poll(() => level0.getAttribute('open')).not.toBeNull();
      expect(await level0.textContent()).toContain(`$ ${command!.command}`);
      expect(await page.locator('#timeline .level-bar').count()).toBe(5);
      // The replay, played at speed, shows the run's terminal: a prompt, a command and its output.
      const passwords = new Set(events.flatMap((e) => (e.type === 'password_found' ? [e.password] : [])));
      const output = events.find(
        (e): e is Extract<RunEvent, { type: 'output' }> =>
          e.type === 'output' && /^\S.*\n/.test(e.stdout) && !passwords.has(e.stdout.split('\n')[0]!),
      );
      expect(output).toBeDefined();
      const screen = await playToEnd(page);
      expect(screen).toContain('bandit0@bandit:~$ ');
      expect(screen).toContain(command!.command);
      expect(screen).toContain(output!.stdout.split('\n')[0]);
      expect(screen).toContain('# run completed: 5 level(s) solved');
      await screenshot(page, `report-offline-${from}`);
      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    });

  it('shows everything but the replay with JavaScript off', async () => {
    const html = await (await fetch(`${stack().url}/api/runs/${run.id}/report.html`)).text();
    const { page, requests } = await openOffline('no-js.html', html, { javaScriptEnabled: false });
    expect(await page.locator('[data-field="solved"]').textContent()).toBe('5');
    expect(await page.locator('#levels tbody tr').count()).toBe(5);
    expect(await page.locator('#timeline .level-bar').count()).toBe(5);
    // The level's number in the table leads to its transcript block, which opens on a click.
    const level4 = page.locator('#transcript details[data-level="4"]');
    await page.locator('#levels tr[data-level="4"] a').click();
    expect(new URL(page.url()).hash).toBe('#level-4');
    expect(await level4.getAttribute('open')).toBeNull();
    await level4.locator('summary').click();
    expect(await level4.getAttribute('open')).not.toBeNull();
    expect(await level4.locator('pre.command').first().isVisible()).toBe(true);
    // (Chromium's script switch does not render <noscript>, so its words are read from the file.)
    expect(await page.locator('noscript').textContent()).toContain('The replay needs JavaScript');
    expect(await page.locator('#replay-play').isDisabled()).toBe(true);
    await screenshot(page, 'report-offline-no-js');
    expect(requests).toEqual([]);
    await page.context().close();
  });

  it("saves the report from the run page's Report (HTML) button", async () => {
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${stack().url}/run?id=${run.id}`);
    const button = page.getByRole('button', { name: 'Report (HTML)' });
    await button.waitFor({ timeout: 60_000 });
    const [saved] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
    expect(saved.suggestedFilename()).toBe(`${run.id}-report.html`);
    const html = readFileSync(await saved.path(), 'utf8');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(html).toContain(`<code>${run.id}</code>`);
    console.log(`report.html of a 5-level baseline run: ${Buffer.byteLength(html)} bytes`);
    await context.close();
  });

  it("runs none of a hostile run's payloads: no dialog, no title, no image, only its own two scripts", async () => {
    const { files } = await hostileArchive({ includeSecrets: false });
    const html = files.get('report.html')!;
    console.log(
      `report.html of the hostile run (a 1 MB output line among its payloads): ${Buffer.byteLength(html)} bytes`,
    );
    const { page, requests, errors } = await openOffline('hostile.html', html);
    expect(await page.title()).not.toContain(MARK);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('#transcript').textContent()).toContain(`<script>alert('${MARK}')</script>`);
    const screen = await playToEnd(page);
    expect(screen).toContain('# run stopped');
    expect(await page.title()).not.toContain(MARK);
    await screenshot(page, 'report-offline-hostile');
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
