// The run page's timeline and model-call inspector in Chromium, on a real stack whose model is a fake
// OpenAI-compatible endpoint: the waterfall shows levels, attempts, nodes, model calls and commands,
// and opening a model call shows the exact request it sent and the response it got.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunSummary } from '../../schema/run.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { startFakeOpenAi, textReply, toolCall } from '../support/fake-openai.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-timeline-'));
let stack: StackProcess;
let browser: Browser;
let openai: FakeOpenAi;
beforeAll(async () => {
  openai = await startFakeOpenAi();
  openai.respond((request, n) =>
    request.tools
      ? toolCall('run_command', { command: `ls -la; echo turn ${n}` }, 'looking around')
      : textReply('look closer'),
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
  it("draws the waterfall and opens a model call's request and response", async () => {
    const created = await fetch(`${stack.url}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake-model', budget: 2, maxRetries: 1, endLevel: 0, finalAttempt: false }),
    });
    const run = (await created.json()) as RunSummary;
    await vi.waitFor(
      async () =>
        expect(((await (await fetch(`${stack.url}/api/runs/${run.id}`)).json()) as RunSummary).status).toBe(
          'paused_for_user_action',
        ),
      { timeout: 60_000, interval: 200 },
    );

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${stack.url}/run?id=${run.id}`);
    await page.getByRole('dialog', { name: 'The run needs you' }).waitFor(WAIT);
    await page.keyboard.press('Escape');
    await page.locator('.timeline summary').click();
    const spans = page.locator('.timeline .span');
    await spans.first().waitFor(WAIT);
    const kinds = await spans.evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    expect(kinds[0]).toBe('level');
    expect(kinds.filter((k) => k === 'attempt')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'command')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'model_call').length).toBeGreaterThanOrEqual(3);
    await screenshot(page, '12-timeline');

    await page.locator('.span-model_call button').first().click();
    const inspector = page.getByTestId('llm-call-inspector');
    await inspector.locator('[data-part="request"]').waitFor(WAIT);
    const request = JSON.parse((await inspector.locator('[data-part="request"]').textContent()) ?? 'null') as unknown;
    expect(request).toEqual(openai.requests[0]!.body);
    expect(await inspector.locator('[data-part="response"]').textContent()).toContain('chat.completion');
    await screenshot(page, '13-model-call-inspector');
    await page.close();
  });
});
