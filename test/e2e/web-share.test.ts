// A share link in real Chromium, on a stack that asks for API_TOKEN: opened in a fresh browser context
// it watches the run live, shows no control that acts, is refused any action and any other run, takes
// its token out of the address bar, never sends it in a URL or a Referer, and stops working once revoked.
import type { Request } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import type { CreatedShare } from '../../schema/access.ts';
import type { RunSummary } from '../../schema/run.ts';
import { browserForFile, screenshot } from '../support/browser.ts';
import { apiJson, runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const TOKEN = 'e2e-share-api-token-0123456789';
const WAIT = { timeout: 60_000 };
const stack = stackForFile('share', { API_TOKEN: TOKEN });
const browser = browserForFile();

const admin = <T>(path: string, init: RequestInit = {}) =>
  apiJson<T>(stack().url, path, { ...init, headers: { authorization: `Bearer ${TOKEN}` } });
const post = <T>(path: string, body: unknown) => admin<T>(path, { method: 'POST', body: JSON.stringify(body) });

describe('a share link in a fresh browser', () => {
  it('watches live, cannot act, and never sends its token in a URL or a Referer', async () => {
    const run = await post<RunSummary>('/api/runs', { model: 'baseline', endLevel: 12, paceMs: 700 });
    const other = await post<RunSummary>('/api/runs', { model: 'baseline', endLevel: 1 });
    await vi.waitFor(async () => expect((await admin<RunSummary>(`/api/runs/${run.id}`)).status).toBe('running'), {
      timeout: 30_000,
      interval: 50,
    });
    const share = await post<CreatedShare>(`/api/runs/${run.id}/shares`, { label: 'e2e', expiresInSeconds: 3600 });
    expect(share.url).toBe(`${stack().url}/run?id=${run.id}#share=${share.token}`);

    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => {
      requests.push(request);
    });
    await page.goto(share.url);
    // The note shows once the page knows it is a share link: from then on the controls are settled.
    await page.getByRole('note').filter({ hasText: 'Shared read-only view' }).waitFor(WAIT);
    expect(page.url()).toBe(`${stack().url}/run?id=${run.id}`);

    // Live: a command stored after the page loaded arrives over the page's socket.
    const commands = page.locator('[data-event="command"]');
    await commands.first().waitFor(WAIT);
    const seen = await commands.count();
    await expect.poll(() => commands.count(), { timeout: 60_000 }).toBeGreaterThan(seen);
    expect(await page.locator('[data-connection]').getAttribute('data-connection')).toBe('live');

    // Nothing that acts is on the page, and no way to the other pages (they would refuse a share link).
    for (const name of [/^Pause$/, /^Stop run$/, /^Share$/, /Take the terminal/, /Answer the run/, /^Verify/, /^Fork/])
      expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    expect(await page.getByRole('form', { name: 'Message the agent' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: '← All runs' }).count()).toBe(0);
    await screenshot(page, '32-share-link-run-page');

    // From the page itself, with what the page holds: an action and another run are refused.
    const answers = await page.evaluate(
      async ([id, otherId]) => {
        const token = window.sessionStorage.getItem('bandit-runner.api-token') ?? '';
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const act = await fetch(`/api/runs/${id}/actions`, { method: 'POST', headers, body: '{"action":"pause"}' });
        const elsewhere = await fetch(`/api/runs/${otherId}`, { headers });
        const list = await fetch('/api/runs', { headers });
        return { act: act.status, elsewhere: elsewhere.status, list: list.status, actBody: await act.json() };
      },
      [run.id, other.id] as const,
    );
    expect(answers).toMatchObject({ act: 403, elsewhere: 403, list: 403 });
    expect(JSON.stringify(answers.actBody)).toMatch(/share link may only read its own run/);
    expect((await admin<RunSummary>(`/api/runs/${run.id}`)).status).toBe('running');

    // Stopped by the admin: the share page hears it live.
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' });
    await page.locator('[data-event="run_complete"]').waitFor(WAIT);

    // The token was in no URL the page asked for, in no Referer, in no header but Authorization.
    const sent = await Promise.all(
      requests.map(async (request) => ({ url: request.url(), headers: await request.allHeaders() })),
    );
    expect(sent.length).toBeGreaterThanOrEqual(8);
    expect(sent.filter(({ url }) => url.includes(share.token))).toEqual([]);
    expect(sent.filter(({ headers }) => (headers.referer ?? '') !== '')).toEqual([]);
    const leaks = sent.flatMap(({ url, headers }) =>
      Object.entries(headers)
        .filter(([name, value]) => name !== 'authorization' && value.includes(share.token))
        .map(([name]) => `${url} ${name}`),
    );
    expect(leaks).toEqual([]);
    expect(sent.some(({ headers }) => headers.authorization === `Bearer ${share.token}`)).toBe(true);
    // Nor in the stack's own output (its logs).
    expect(stack().output()).not.toContain(share.token);

    // Revoked: the same page's next call is a 401 saying so.
    await admin(`/api/runs/${run.id}/shares/${share.id}`, { method: 'DELETE' });
    const after = await page.evaluate(async () => {
      const token = window.sessionStorage.getItem('bandit-runner.api-token') ?? '';
      const response = await fetch('/api/access', { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.json() };
    });
    expect(after).toMatchObject({ status: 401, body: { error: { code: 'token_revoked' } } });
    // The page's open socket was closed by the revocation, and the page says why.
    await page.getByText(/the share link or token was revoked/).waitFor(WAIT);
    await context.close();
  });
});

describe('making links', () => {
  it("the run page's Share panel makes, lists and revokes a link; a viewer's page has no control that acts", async () => {
    const run = await post<RunSummary>('/api/runs', { model: 'baseline', endLevel: 12, paceMs: 700 });
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${stack().url}/run?id=${run.id}&token=${TOKEN}`);
    await page.locator('main[data-role="admin"]').waitFor(WAIT);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByLabel('Link expiry').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Make link' }).click();
    const field = page.getByRole('textbox', { name: 'Share link' });
    await field.waitFor(WAIT);
    const url = await field.inputValue();
    expect(url).toMatch(new RegExp(`^${stack().url}/run\\?id=${run.id}#share=brs_[A-Za-z0-9_-]{43}$`));
    const token = url.slice(url.indexOf('#share=') + 7);
    const listed = page.locator('.share-list li[data-share-state="active"]');
    await listed.waitFor(WAIT);
    expect(await listed.textContent()).toMatch(/expires/);
    await screenshot(page, '32-share-panel');
    const access = (t: string) => fetch(`${stack().url}/api/access`, { headers: { authorization: `Bearer ${t}` } });
    expect((await access(token)).status).toBe(200);
    await listed.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('.share-list li[data-share-state="revoked"]').waitFor(WAIT);
    expect((await access(token)).status).toBe(401);

    // A viewer watches: no answer, pause, stop, share, message, terminal or secrets.
    const viewer = await post<{ token: string }>('/api/tokens', { role: 'viewer' });
    const watching = await (await browser().newContext()).newPage();
    await watching.goto(`${stack().url}/run?id=${run.id}&token=${viewer.token}`);
    await watching.locator('main[data-role="viewer"]').waitFor(WAIT);
    await watching.locator('[data-event="command"]').first().waitFor(WAIT);
    for (const name of [/^Pause$/, /^Stop run$/, /^Share$/, /Take the terminal/, /^Verify/, /^Fork/])
      expect(await watching.getByRole('button', { name }).count(), String(name)).toBe(0);
    expect(await watching.getByRole('form', { name: 'Message the agent' }).count()).toBe(0);
    expect(await watching.getByLabel('include passwords and keys').count()).toBe(0);
    // The viewer may go back to the list (it may read every run), unlike a share link.
    expect(await watching.getByRole('link', { name: '← All runs' }).count()).toBe(1);
    // Nor a form to start runs or batches: a line says why instead.
    for (const [path, what] of [
      ['/', 'starting a run'],
      ['/batch', 'starting a batch'],
    ]) {
      await watching.goto(`${stack().url}${path}`);
      await watching.locator('[data-read-only="viewer"]').filter({ hasText: what }).waitFor(WAIT);
      expect(await watching.getByRole('button', { name: /^Start/ }).count(), path).toBe(0);
    }
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' });
    await context.close();
  });

  it('bandit-runner share prints a link with an operator token, and is refused with a viewer one', async () => {
    const run = await post<RunSummary>('/api/runs', { model: 'baseline', endLevel: 1 });
    const operator = await post<{ token: string }>('/api/tokens', { role: 'operator' });
    const viewer = await post<{ token: string }>('/api/tokens', { role: 'viewer' });
    const made = await runCli(stack().url, ['--token', operator.token, 'share', run.id, '--expires', '2h']);
    expect(made.code, made.stderr).toBe(0);
    const url = made.stdout.trim();
    expect(url).toMatch(new RegExp(`^${stack().url}/run\\?id=${run.id}#share=brs_`));
    expect(made.stderr).toMatch(/read-only link to run_\w+ \(shr_[\w-]+\), until 20\d\d-/);
    const token = url.slice(url.indexOf('#share=') + 7);
    const who = await fetch(`${stack().url}/api/access`, { headers: { authorization: `Bearer ${token}` } });
    expect(await who.json()).toMatchObject({ role: 'share', runId: run.id });
    // The link's token watches the run from the CLI too.
    await vi.waitFor(async () => expect((await admin<RunSummary>(`/api/runs/${run.id}`)).status).toBe('completed'), {
      timeout: 60_000,
      interval: 100,
    });
    const watched = await runCli(stack().url, ['--token', token, 'watch', run.id]);
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/level 1/i);
    const refused = await runCli(stack().url, ['--token', viewer.token, 'share', run.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/needs the operator role; this token is viewer/);
    const badExpiry = await runCli(stack().url, ['--token', operator.token, 'share', run.id, '--expires', '5s']);
    expect(badExpiry.code).toBe(2);
    expect(badExpiry.stderr).toMatch(/--expires must be at least a minute/);
    const shareId = /\((shr_[\w-]+)\)/.exec(made.stderr)![1]!;
    const revoked = await runCli(stack().url, ['--token', operator.token, 'share', run.id, '--revoke', shareId]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await fetch(`${stack().url}/api/access`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });
});
