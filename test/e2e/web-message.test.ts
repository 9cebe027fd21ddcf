// The run page's message box against the real stack in Chromium: a person messages a baseline run's
// agent while it runs; the chat shows the message (sent from the web UI) and where the agent read it,
// once. The box is gone once the run has ended.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents, apiJson } from '../support/cli-process.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-web-message-'));
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

const post = (path: string, body: unknown) =>
  apiJson<RunSummary>(stack.url, path, { method: 'POST', body: JSON.stringify(body) });
const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('the run page message box', () => {
  it('sends a message the chat shows as sent by the web UI and read once by the agent', async () => {
    const run = await post('/api/runs', { model: 'baseline', endLevel: 12, paceMs: 700 });
    await vi.waitFor(
      async () => expect((await apiJson<RunSummary>(stack.url, `/api/runs/${run.id}`)).status).toBe('running'),
      { timeout: 30_000, interval: 50 },
    );
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${stack.url}/run?id=${run.id}`);
    const box = page.getByRole('form', { name: 'Message the agent' });
    await box.getByRole('textbox').fill('try `echo web-marker-9` first');
    await box.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => box.getByRole('status').textContent(), { timeout: 10_000 }).toMatch(/Sent/);
    // Still running when the message was sent (a 12-level run at a readable pace), so it is read at a next turn.
    expect(ofType(await allEvents(stack.url, run.id), 'run_complete')).toEqual([]);
    await vi.waitFor(async () => expect(ofType(await allEvents(stack.url, run.id), 'message_read')).toHaveLength(1), {
      timeout: 30_000,
      interval: 100,
    });
    // Stopped, so the chat holds still with both entries near its end; the box goes with the run.
    await post(`/api/runs/${run.id}/actions`, { action: 'stop' });
    await expect.poll(() => box.count(), { timeout: 10_000 }).toBe(0);
    const chat = page.locator('ol.chat-log');
    const events = await allEvents(stack.url, run.id);
    const [message, ...more] = ofType(events, 'message_sent');
    const reads = ofType(events, 'message_read');
    // A finished level is folded in the chat: open the levels the message was sent and read at.
    for (const level of new Set([message?.level, reads[0]?.level])) {
      const fold = page.locator('button.fold-line', { hasText: new RegExp(`^. Level ${level} `) });
      if ((await fold.getAttribute('aria-expanded')) === 'false') await fold.click();
    }
    await expect
      .poll(() => chat.textContent(), { timeout: 10_000 })
      .toContain('you messaged the agent: try `echo web-marker-9` first');
    await expect.poll(() => chat.textContent(), { timeout: 10_000 }).toContain('The agent read your message');
    await screenshot(page, 'web-message-read');
    expect(more).toEqual([]);
    expect(message).toMatchObject({ text: 'try `echo web-marker-9` first', by: 'the web UI' });
    expect(reads).toEqual([expect.objectContaining({ messageSeq: message?.seq })]);
  }, 180_000);
});
