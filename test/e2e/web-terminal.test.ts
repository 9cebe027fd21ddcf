// The run page's shared terminal against the real stack in Chromium (issue 30). A baseline run on
// level 25: tab A takes the terminal, types into xterm.js (`cat`), shrinks it to 6 rows so bandit26's
// pager stops, and goes `v` → vi → `:e /etc/bandit_pass/bandit26`; tab B watches the same screen
// read-only (its keys send nothing, a raw socket's input and second takeover are refused naming the
// holder); A hands back and the level ends solved by the person. A human run: level 0 played in the
// terminal (a password typed at a prompt is never stored), solved by the person, and the terminal
// reopens at level 1. A phone-width page of a finished run with its terminal history. Two tabs racing
// for the terminal: one holds it, the other is told who does.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildWorld } from '../../practice/world/world.ts';
import type { RunEvent, ServerMessage } from '../../schema/protocol.ts';
import { socketProtocols } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents, apiJson } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const SEED = 'web-terminal-seed';
const PASSWORDS = buildWorld(SEED).passwords;
const WAIT = { timeout: 60_000 };
const stack = stackForFile('web-terminal', { PRACTICE_SEED: SEED });

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const post = <T = RunSummary>(path: string, body: unknown) =>
  apiJson<T>(stack().url, path, { method: 'POST', body: JSON.stringify(body) });
const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);
/** Every byte the run's terminal printed, as stored. */
const printed = (events: RunEvent[]) =>
  ofType(events, 'terminal_output')
    .map((e) => Buffer.from(e.data, 'base64').toString('utf8'))
    .join('');

/** The text on a tab's xterm screen now (the DOM renderer's rows). */
const screenText = (page: Page) =>
  page
    .locator('.xterm-rows')
    .textContent()
    .then((t) => t ?? '');
const panelState = (page: Page) => page.locator('section.run-terminal').getAttribute('data-terminal');
/** The open pause dialog's level, or 'closed'. */
const dialogLevel = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelector<HTMLDialogElement>('dialog[data-testid="user-action-modal"][open]')?.dataset.level ??
      'closed',
  );

/** Types into the focused xterm as a person does, Enter at the end. */
async function typeLine(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line, { delay: 5 });
  await page.keyboard.press('Enter');
}

/** A raw client of the run's socket (no client name: "an API client"), collecting what the server says. */
async function rawSocket(runId: string) {
  const heard: ServerMessage[] = [];
  const url = `${stack().url.replace(/^http/, 'ws')}/api/runs/${runId}/ws?since=0`;
  const ws = new WebSocket(url, socketProtocols(null));
  ws.addEventListener('message', (m) => heard.push(JSON.parse(String(m.data)) as ServerMessage));
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  await vi.waitFor(() => expect(heard.some((m) => m.type === 'snapshot')).toBe(true), WAIT);
  const errors = () => heard.filter((m): m is Extract<ServerMessage, { type: 'error' }> => m.type === 'error');
  return { ws, errors, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

describe('the run page terminal', () => {
  it('is taken in one tab, watched read-only in another, plays level 25 through the pager and vi, and hands back', async () => {
    // Started at level 25 (it asks for bandit25's password), slow enough to be caught mid-level.
    const run = await post('/api/runs', {
      model: 'baseline',
      startLevel: 25,
      endLevel: 25,
      maxRetries: 2,
      paceMs: 5000,
    });
    await vi.waitFor(
      async () =>
        expect((await allEvents(stack().url, run.id)).some((e) => e.type === 'user_action_required')).toBe(true),
      WAIT,
    );
    await post(`/api/runs/${run.id}/actions`, { action: 'password', value: PASSWORDS[25] });

    const a = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    const b = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    const sentByB: string[] = [];
    b.on('websocket', (ws) => ws.on('framesent', (f) => sentByB.push(String(f.payload))));
    await Promise.all([a.goto(`${stack().url}/run?id=${run.id}`), b.goto(`${stack().url}/run?id=${run.id}`)]);
    const take = a.getByRole('button', { name: 'Take the terminal' });
    await take.waitFor(WAIT);
    await take.click();

    // A holds it once the agent has finished its step and the shell is up; B watches, told who holds it.
    await expect.poll(() => panelState(a), WAIT).toBe('held');
    await expect.poll(() => panelState(b), WAIT).toBe('watching');
    expect(await b.locator('.run-terminal-status').textContent()).toContain('the web UI holds the terminal');
    expect(await b.getByRole('button', { name: 'Take the terminal' }).count()).toBe(0);
    // The pause for the takeover opens no dialog over the terminal, in either tab.
    expect([await dialogLevel(a), await dialogLevel(b)]).toEqual(['closed', 'closed']);
    await expect.poll(() => screenText(a), WAIT).toContain('bandit25@');
    await typeLine(a, 'cat /etc/bandit_pass/bandit25');
    await expect.poll(() => screenText(a), WAIT).toContain(PASSWORDS[25]);
    await expect.poll(() => screenText(b), WAIT).toContain(PASSWORDS[25]);
    await screenshot(a, 'terminal-01-holder-cat');

    // B's keys go nowhere; a socket that does not hold it is refused, and so is a second takeover.
    await b.locator('.xterm-frame').click();
    await b.keyboard.type('echo from-b');
    await b.keyboard.press('Enter');
    const raw = await rawSocket(run.id);
    raw.send({ type: 'terminal_input', data: 'echo from-raw\r' });
    raw.send({ type: 'user_action', action: 'takeover', cols: 80, rows: 24 });
    await vi.waitFor(() => expect(raw.errors().map((e) => e.code)).toEqual(['not_holder', 'terminal_held']), WAIT);
    expect(raw.errors()[1]?.message).toContain('held by the web UI');
    raw.ws.close();
    expect(sentByB.filter((f) => f.includes('terminal_input') || f.includes('takeover'))).toEqual([]);

    // Level 25's way: a short screen makes bandit26's pager stop; v opens vi; vi reads the password file.
    await a.getByLabel('Terminal rows').selectOption('6');
    await a.locator('.xterm-frame').click();
    await typeLine(a, 'ssh -i bandit26.sshkey bandit26@localhost');
    await expect.poll(() => screenText(a), WAIT).toContain('--More--');
    await a.keyboard.type('v');
    await a.keyboard.type(':e /etc/bandit_pass/bandit26');
    await a.keyboard.press('Enter');
    await expect.poll(() => screenText(a), WAIT).toContain(PASSWORDS[26]);
    await expect.poll(() => screenText(b), WAIT).toContain(PASSWORDS[26]);
    await screenshot(a, 'terminal-02-vi-through-the-pager');
    await screenshot(b, 'terminal-03-watcher');
    expect(await screenText(a)).not.toContain('from-b');

    // Hand back: the session proved bandit26's password, so level 25 is solved by the person. The proxy
    // proves a password by logging in with it, in the background, and no client is told when it has
    // (docs/protocol.md): a person reads the screen for longer than that; this test waits 5 s instead.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await a.getByRole('button', { name: 'Hand back' }).click();
    await vi.waitFor(
      async () => expect(ofType(await allEvents(stack().url, run.id), 'takeover_ended')).toHaveLength(1),
      WAIT,
    );
    expect(ofType(await allEvents(stack().url, run.id), 'takeover_ended')[0]).toMatchObject({ provedLevel: 25 });
    await a.locator('.run-header [data-status="completed"]').waitFor(WAIT);
    await expect
      .poll(() => a.locator('.level-strip [data-level="25"]').getAttribute('data-outcome'), WAIT)
      .toBe('solved_with_password');
    const events = await allEvents(stack().url, run.id);
    expect(ofType(events, 'takeover_started')).toEqual([expect.objectContaining({ level: 25, by: 'the web UI' })]);
    expect(ofType(events, 'takeover_ended')).toEqual([
      expect.objectContaining({ reason: 'handback', by: 'the web UI', provedLevel: 25 }),
    ]);
    expect(ofType(events, 'level_complete')).toEqual([expect.objectContaining({ level: 25, solvedBy: 'person' })]);
    expect(printed(events)).toContain(PASSWORDS[26]);
    expect(printed(events)).not.toContain('from-b');
    expect(printed(events)).not.toContain('from-raw');
    // The chat tells the session, not its bytes.
    const chat = a.locator('ol.chat-log');
    await expect.poll(() => chat.textContent(), WAIT).toContain('took the terminal at level 25');
    await expect
      .poll(() => chat.textContent(), WAIT)
      .toMatch(/The terminal closed \(handed back\) after \d+s, 3 commands; level 25 proven/);
    expect(await chat.locator('[data-event="terminal_output"]').count()).toBe(0);
    await screenshot(a, 'terminal-04-handed-back');

    // A phone opens the finished run: the terminal's history replays, read-only, and nothing overflows.
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true })).newPage();
    await phone.goto(`${stack().url}/run?id=${run.id}`);
    await expect.poll(() => screenText(phone), WAIT).toContain('the terminal closed (handback); level 25 proven');
    expect(await phone.getByRole('button', { name: 'Take the terminal' }).count()).toBe(0);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(phone, 'terminal-05-phone-history');
    for (const page of [a, b, phone]) await page.context().close();
  });

  it('plays a human run: level 0 in the terminal is solved by the person and the terminal reopens at level 1', async () => {
    const run = await post('/api/runs', { model: 'human', startLevel: 0, endLevel: 2 });
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    await page.goto(`${stack().url}/run?id=${run.id}`);
    const play = page.getByRole('button', { name: 'Play level 0' });
    await play.waitFor(WAIT);
    expect(await dialogLevel(page)).toBe('closed');
    expect(await page.getByRole('form', { name: 'Message the agent' }).count()).toBe(0);
    await play.click();
    await expect.poll(() => panelState(page), WAIT).toBe('held');
    await expect.poll(() => screenText(page), WAIT).toContain('bandit0@');

    // A password typed at a prompt reaches the shell, not the record (the prompt does not echo it).
    const secret = 'typed-secret-7Qx';
    await typeLine(page, 'ssh bandit1@localhost');
    for (let i = 0; i < 3; i++) {
      await expect.poll(async () => (await screenText(page)).split('password:').length - 1, WAIT).toBeGreaterThan(i);
      await typeLine(page, secret);
    }
    await expect.poll(() => screenText(page), WAIT).toContain('Permission denied');
    await typeLine(page, 'cat readme');
    // The readme's password logs in as bandit1: level 0 is the person's, and level 1 opens for them.
    await expect
      .poll(() => page.locator('.level-strip [data-level="0"]').getAttribute('data-outcome'), WAIT)
      .toBe('solved_with_password');
    // It closes as the level is solved, then opens again for the same tab at level 1.
    await expect
      .poll(() => page.locator('.run-terminal-status').textContent(), WAIT)
      .toContain('You hold the terminal, logged in as bandit1');
    expect(await panelState(page)).toBe('held');
    await expect.poll(() => screenText(page), WAIT).toContain('bandit1@');
    await screenshot(page, 'terminal-06-human-level-1');

    const events = await allEvents(stack().url, run.id);
    expect(ofType(events, 'level_complete')).toEqual([expect.objectContaining({ level: 0, solvedBy: 'person' })]);
    expect(ofType(events, 'takeover_ended')[0]).toMatchObject({ level: 0, reason: 'solved' });
    expect(ofType(events, 'takeover_started').map((e) => e.level)).toEqual([0, 1]);
    expect(printed(events)).toContain(PASSWORDS[1]);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(printed(events)).not.toContain(secret);
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' });
    await page.locator('.run-header [data-status="stopped"]').waitFor(WAIT);
    await page.context().close();
  });
  it('lets one of two racing tabs hold the terminal and tells the other who does', async () => {
    const run = await post('/api/runs', { model: 'human', startLevel: 0, endLevel: 1 });
    const url = `${stack().url}/run?id=${run.id}`;
    const a = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    const b = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
    // B's socket goes through a route that can hold back what the server says, so B asks for the
    // terminal not yet knowing that A has it: the race, made certain.
    let frozen = false;
    const held: (string | Buffer)[] = [];
    let toB = null as ((m: string | Buffer) => void) | null;
    await b.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      toB = (m) => ws.send(m);
      server.onMessage((m) => (frozen ? held.push(m) : ws.send(m)));
      ws.onMessage((m) => server.send(m));
    });
    await Promise.all([a.goto(url), b.goto(url)]);
    await Promise.all([a, b].map((p) => p.getByRole('button', { name: 'Play level 0' }).waitFor(WAIT)));
    frozen = true;
    await a.getByRole('button', { name: 'Play level 0' }).click();
    await expect.poll(() => panelState(a), WAIT).toMatch(/^(opening|held)$/);
    await b.getByRole('button', { name: 'Play level 0' }).click();
    await vi.waitFor(() => expect(held.some((m) => String(m).includes('terminal_held'))).toBe(true), WAIT);
    frozen = false;
    for (const m of held.splice(0)) toB?.(m);

    await expect
      .poll(() => b.locator('section.run-terminal [role="alert"]').textContent(), WAIT)
      .toContain('the terminal is held by the web UI');
    await expect.poll(() => panelState(b), WAIT).toBe('watching');
    expect(await b.locator('section.run-terminal .run-terminal-status').textContent()).toContain('in another tab');
    // Said once, in the panel: not again as the header's server notice.
    expect(await b.locator('.run-header').textContent()).not.toContain('held by');
    await expect.poll(() => panelState(a), WAIT).toBe('held');
    await screenshot(b, 'terminal-07-race-lost');
    const started = ofType(await allEvents(stack().url, run.id), 'takeover_started');
    expect(started).toHaveLength(1);
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' });
    for (const page of [a, b]) await page.context().close();
  });
});
