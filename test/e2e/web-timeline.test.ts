// The run page's timeline and model-call inspector in Chromium, on a real stack whose model is a fake
// OpenAI-compatible endpoint: the waterfall opens folded to levels, a level opens to its attempts and
// its waits for a person (with the answer and who gave it), every bar on one time axis whatever its
// depth; a model call shows its request and response as a chat, and the exact JSON one click away.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents } from '../support/cli-process.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };
/** What the model says: markup and a bidi override, which the chat must show as text. */
const HOSTILE = 'looking around <img src=x onerror="window.__pwned=1"> \u202Egnp.exe';
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-timeline-'));
let stack: StackProcess;
let browser: Browser;
let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await startFakeOpenAi();
  openai.respond((request, n) =>
    request.tools ? toolCall('run_command', { command: `ls -la; echo turn ${n}` }, HOSTILE) : textReply('look closer'),
  );
  [stack, browser] = await Promise.all([
    startStackProcess(stateDir, undefined, {
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_API_KEY: 'sk-timeline-e2e',
      OPENAI_MODELS: 'fake-model',
    }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await openai?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('the run timeline', () => {
  it('opens folded to levels, shows waits as their own spans on one time axis, and a model call as a chat', async () => {
    const created = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', budget: 2, maxRetries: 1, endLevel: 0, finalAttempt: false }),
    });
    const run = (await created.json()) as RunSummary;
    const pauses = async () => (await allEvents(stack.url, run.id)).filter((e) => e.type === 'user_action_required');
    await vi.waitFor(async () => expect(await pauses()).toHaveLength(1), { timeout: 60_000, interval: 200 });
    // A person answers with a hint from a bare API call; the run tries again and pauses a second time.
    const answered = await fetch(`${stack.url}/api/runs/${run.id}/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'continue', hint: 'read the readme' }),
    });
    expect(answered.status).toBe(200);
    await vi.waitFor(async () => expect(await pauses()).toHaveLength(2), { timeout: 60_000, interval: 200 });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${stack.url}/run?id=${run.id}`);
    await page.getByRole('dialog', { name: 'The run needs you' }).waitFor(WAIT);
    await page.keyboard.press('Escape');
    await page.locator('.timeline summary').click();
    const spans = page.locator('.timeline .span');
    await spans.first().waitFor(WAIT);
    const kinds = () => spans.evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    // Folded to levels: one row, for level 0.
    expect(await kinds()).toEqual(['level']);
    await screenshot(page, '12-timeline-levels');

    await page.locator('.span-level .span-toggle').click();
    const waits = page.locator('.timeline .span-wait');
    expect(await waits.count()).toBe(2);
    expect(await waits.nth(0).textContent()).toContain('waited (max retries): hint by an API client');
    expect(await waits.nth(0).getAttribute('data-status')).toBe('ok');
    expect(await waits.nth(1).getAttribute('data-status')).toBe('open');
    expect(await waits.nth(1).locator('.span-time').textContent()).toBe('waiting');

    // A wait links to its question in the transcript.
    const asked = (await pauses())[0]!.seq;
    await waits.nth(0).locator('.span-jump').click();
    expect(await page.evaluate(() => window.location.hash)).toBe(`#seq-${asked}`);
    await vi.waitFor(async () => {
      const shown = await page.locator(`#seq-${asked}`).evaluate((item) => {
        const box = item.getBoundingClientRect();
        const log = item.closest('.chat-log')?.getBoundingClientRect();
        return log !== undefined && box.bottom > log.top && box.top < log.bottom;
      });
      expect(shown).toBe(true);
    }, WAIT);

    await page.getByRole('button', { name: 'Expand all' }).click();
    const all = await kinds();
    expect(all.filter((k) => k === 'attempt').length).toBeGreaterThanOrEqual(2);
    expect(all.filter((k) => k === 'command').length).toBeGreaterThanOrEqual(4);
    expect(all.filter((k) => k === 'model_call').length).toBeGreaterThanOrEqual(3);
    // Every depth draws on the same track: same left edge and width as the level's.
    const tracks = await page
      .locator('.timeline .span-track')
      .evaluateAll((items) => items.map((t) => [t.getBoundingClientRect().left, t.getBoundingClientRect().width]));
    expect(
      new Set(await page.locator('.timeline .span').evaluateAll((l) => l.map((li) => li.dataset.depth))).size,
    ).toBe(4);
    for (const track of tracks) expect(track).toEqual(tracks[0]);
    // The first attempt's bar ends where the first wait's begins: the wait is not folded into it.
    const bar = async (selector: string) =>
      page
        .locator(selector)
        .first()
        .locator('.span-bar')
        .evaluate((b) => {
          const box = b.getBoundingClientRect();
          return { left: box.left, right: box.right };
        });
    const attemptBar = await bar('.timeline .span-attempt');
    const waitBar = await bar('.timeline .span-wait');
    expect(attemptBar.right).toBeLessThanOrEqual(waitBar.left + 1);
    expect(waitBar.right - waitBar.left).toBeGreaterThan(0);
    await screenshot(page, '12-timeline');

    await page.locator('.span-model_call button').first().click();
    const inspector = page.getByTestId('llm-call-inspector');
    const sent = openai.requests[0]!.body as unknown as { messages: { role: string; content: unknown }[] };
    const chatRequest = inspector.locator('[data-part="chat-request"]');
    await chatRequest.waitFor(WAIT);
    const roles = await chatRequest.locator('.chat-turn').evaluateAll((l) => l.map((t) => t.getAttribute('data-role')));
    expect(roles).toEqual(sent.messages.map((m) => (m.role === 'developer' ? 'system' : m.role)));
    expect(roles[0]).toBe('system');
    expect(await inspector.locator('[data-part="tools"]').textContent()).toContain('run_command');
    expect(await chatRequest.locator('.chat-turn').first().locator('.chat-text').textContent()).toBe(
      sent.messages[0]!.content,
    );
    // The response: the assistant's turn and the tool call it asked for, through <Shown>.
    const reply = inspector.locator('[data-part="chat-response"] .chat-turn[data-role="assistant"]');
    expect(await reply.locator('[data-tool="run_command"] .chat-text bdi.shown').textContent()).toContain(
      '"command": "ls -la; echo turn',
    );
    const said = (await reply.locator('.chat-text').first().textContent()) ?? '';
    expect(said).toContain('looking around <img src=x onerror="window.__pwned=1">');
    expect(said).not.toContain('\u202E');
    expect(await inspector.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await screenshot(page, '13-model-call-inspector');

    await inspector.getByRole('button', { name: 'Show raw JSON' }).click();
    const request = JSON.parse((await inspector.locator('[data-part="request"]').textContent()) ?? 'null') as unknown;
    expect(request).toEqual(openai.requests[0]!.body);
    expect(await inspector.locator('[data-part="response"]').textContent()).toContain('chat.completion');
    expect(await inspector.locator('[data-part="chat-request"]').count()).toBe(0);
    await screenshot(page, '13-model-call-inspector-raw');
    await page.close();
  });
});
