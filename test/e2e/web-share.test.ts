// A share link in real Chromium, on a stack that asks for API_TOKEN: opened in a fresh browser context
// it watches the run live, shows no control that acts, is refused any action and any other run, takes
// its token out of the address bar, never sends it in a URL or a Referer, and stops working once revoked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedShare } from '../../schema/access.ts';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { apiJson } from '../support/cli-process.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const TOKEN = 'e2e-share-api-token-0123456789';
const WAIT = { timeout: 60_000 };
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-share-'));
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

const admin = <T>(path: string, init: RequestInit = {}) =>
  apiJson<T>(stack.url, path, { ...init, headers: { authorization: `Bearer ${TOKEN}` } });
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
    expect(share.url).toBe(`${stack.url}/run?id=${run.id}#share=${share.token}`);

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => {
      requests.push(request);
    });
    await page.goto(share.url);
    // The note shows once the page knows it is a share link: from then on the controls are settled.
    await page.getByRole('note').filter({ hasText: 'Shared read-only view' }).waitFor(WAIT);
    expect(page.url()).toBe(`${stack.url}/run?id=${run.id}`);

    // Live: a command stored after the page loaded arrives over the page's socket.
    const commands = page.locator('[data-event="command"]');
    await commands.first().waitFor(WAIT);
    const seen = await commands.count();
    await expect.poll(() => commands.count(), { timeout: 60_000 }).toBeGreaterThan(seen);
    expect(await page.locator('[data-connection]').getAttribute('data-connection')).toBe('live');

    // Nothing that acts is on the page, and no way to the other pages (they would refuse a share link).
    for (const name of [/^Pause$/, /^Stop run$/, /^Share$/, /Take the terminal/, /Answer the run/, /^Verify/])
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
    expect(stack.output()).not.toContain(share.token);

    // Revoked: the same page's next call is a 401 saying so.
    await admin(`/api/runs/${run.id}/shares/${share.id}`, { method: 'DELETE' });
    const after = await page.evaluate(async () => {
      const token = window.sessionStorage.getItem('bandit-runner.api-token') ?? '';
      const response = await fetch('/api/access', { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.json() };
    });
    expect(after).toMatchObject({ status: 401, body: { error: { code: 'token_revoked' } } });
    await context.close();
  });
});
