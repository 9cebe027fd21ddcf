// The web UI on a stack that asks for API_TOKEN, in real Chromium: the token is handed over once as
// /?token=…, leaves the address bar at once, stays out of every link and every Referer, and still
// carries REST and the run's socket. Without it, the API refuses.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const TOKEN = 'e2e-api-token-0123456789abcdef';
const WAIT = { timeout: 60_000 };
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-token-'));
let stack: StackProcess;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStackProcess(stateDir, undefined, { API_TOKEN: TOKEN }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('the web UI with API_TOKEN', () => {
  it('keeps the token out of URLs and links while REST and the socket carry it', async () => {
    // Without the token the API refuses, and health shows no reasons.
    expect((await fetch(`${stack.url}/api/runs`)).status).toBe(401);
    const open = (await (await fetch(`${stack.url}/api/health`)).json()) as {
      components: Record<string, { reason: string }>;
    };
    expect(Object.values(open.components).every((c) => /^(ok|not ok; )/.test(c.reason))).toBe(true);

    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    const requests: Request[] = [];
    page.on('request', (request) => {
      requested.push(request.url());
      requests.push(request);
    });
    const document = await page.goto(`${stack.url}/?token=${TOKEN}`);
    // Every page says no-referrer in its headers (web/public/_headers) and in a meta tag.
    expect(document?.headers()['referrer-policy']).toBe('no-referrer');
    await page.getByRole('heading', { name: 'Start a run' }).waitFor(WAIT);
    expect(page.url()).toBe(`${stack.url}/`);
    expect(await page.evaluate(() => window.sessionStorage.getItem('bandit-runner.api-token'))).toBe(TOKEN);
    // The health panel is read with the token, so it gives reasons.
    await page.locator('[data-component="d1"] .reason', { hasText: 'query ok' }).waitFor(WAIT);

    // This test's run plays at full speed; a first run is paced by default (test/e2e/first-run.test.ts).
    await page.getByLabel('Watch at a readable pace').setChecked(false);
    await page.getByLabel('Max retries').fill('1');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/run\?id=run_[0-9a-z]+$/, WAIT);
    // Commands arrive over the socket, which carried the token as a subprotocol.
    await page.locator('[data-event="command"]').first().waitFor(WAIT);
    await page.getByRole('dialog', { name: 'The run needs you' }).waitFor(WAIT);
    expect(await page.locator('[data-connection]').getAttribute('data-connection')).toBe('live');
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.filter((href) => href.includes('token'))).toEqual([]);
    await screenshot(page, '11-token-run-page');

    // Stopped over REST with the bearer; the modal closes as the socket hears it.
    const runId = new URL(page.url()).searchParams.get('id')!;
    const stopped = await fetch(`${stack.url}/api/runs/${runId}/actions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'stop' }),
    });
    expect(stopped.status).toBe(200);
    await page.locator('[data-event="run_complete"]').waitFor(WAIT);

    // Back to the list through an in-app link: still allowed, still no token in the address bar.
    await page.getByRole('link', { name: '← All runs' }).first().click();
    await page.locator(`.runs-table tr[data-run="${runId}"]`).waitFor(WAIT);
    expect(page.url()).toBe(`${stack.url}/`);
    // The only URL that ever held the token is the one typed in.
    expect(requested.filter((url) => url.includes(TOKEN))).toEqual([`${stack.url}/?token=${TOKEN}`]);
    // No request names the page in a Referer: not the scripts and styles fetched before the hand-off
    // ran (at the first page's start), nor anything later.
    const sent = await Promise.all(
      requests.map(async (request) => ({ url: request.url(), headers: await request.allHeaders() })),
    );
    const sameOrigin = sent.filter(({ url }) => url.startsWith(`${stack.url}/_next/`));
    expect(sameOrigin.length).toBeGreaterThanOrEqual(8);
    // A request cut short by the navigation (the run page's verification fetch, say) can report its
    // provisional headers, with an empty Referer: that names nothing, so only a non-empty one counts.
    expect(sent.filter(({ headers }) => (headers.referer ?? '') !== '')).toEqual([]);
    // Only Authorization (REST) carries the token; the socket's subprotocol is not a request event.
    const leaks = sent.flatMap(({ url, headers }) =>
      Object.entries(headers)
        .filter(([name, value]) => name !== 'authorization' && value.includes(TOKEN))
        .map(([name]) => `${url} ${name}`),
    );
    expect(leaks).toEqual([]);
    expect(sent.some(({ headers }) => headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    await context.close();
  });
});
