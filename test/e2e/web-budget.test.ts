// Caps in the web UI, in real Chromium against the real stack (baseline model): a run started from the
// form with a command cap shows the Budget panel, pauses at the cap with the breach in the dialog
// (Raise and Stop only), a raise from the dialog takes it on to the new cap, and the panel follows; the
// batch form sends its cost cap as the batch's maxCostUsd; a batch of a priced model (a fake endpoint) shows its
// cost cap on its page, and raising it there lets the runs paused at it go on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { baselineResponder } from '../../scripts/fake-llm/baseline-responder.ts';
import type { Batch } from '../../schema/board.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startFakeOpenAi } from '../support/fake-openai.ts';
import { allEvents } from '../support/cli-process.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-web-budget-'));
let stack: StackProcess;
let browser: Browser;
let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.respond(baselineResponder({ pieceDelayMs: 0, persona: 'Quick' }));
  const model = { name: 'mini', price: { input: 0.15, output: 0.6 } };
  const env = { PROVIDERS: JSON.stringify({ providers: [{ name: 'quick', baseUrl: fake.baseUrl, models: [model] }] }) };
  [stack, browser] = await Promise.all([startStackProcess(stateDir, undefined, env), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await fake?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('caps in the web UI', () => {
  it('starts a capped run from the form, pauses at the cap, raises it from the dialog and goes on', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(stack.url);
    await page.getByRole('heading', { name: 'Start a run' }).waitFor(WAIT);
    const caps = page.getByTestId('caps-group');

    // A cap of 0 is refused under its field, in the schema's words, before anything is sent.
    await caps.getByLabel('Commands').fill('0');
    await page.getByRole('button', { name: 'Start run' }).click();
    await caps.getByText('Commands must be more than 0 commands').waitFor(WAIT);

    await page.getByLabel('To level').fill('12');
    await caps.getByLabel('Commands').fill('3');
    await caps.getByLabel('Tokens').fill('100000');
    await page.getByLabel('Watch at a readable pace').setChecked(false);
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/run\?id=run_[0-9a-z]+$/, WAIT);
    const runId = new URL(page.url()).searchParams.get('id')!;

    // The budget pause: the dialog names the cap, what was spent and the limit; only Raise and Stop.
    const modal = page.getByRole('dialog', { name: 'The run needs you' });
    await modal.waitFor(WAIT);
    expect(await modal.getAttribute('data-reason')).toBe('budget_exceeded');
    expect(await modal.getByTestId('breach').textContent()).toMatch(
      /paused at the run's command cap: 3 commands spent of 3 commands/,
    );
    expect(await modal.getByRole('button', { name: 'Continue', exact: true }).count()).toBe(0);
    expect(await modal.getByRole('button', { name: 'Provide password' }).count()).toBe(0);
    // The cap hit is offered at twice its limit, the other caps as they are.
    expect(await modal.getByLabel('Commands (the cap hit)').inputValue()).toBe('6');
    expect(await modal.getByLabel('Tokens').inputValue()).toBe('100000');
    // Focus is on the cap hit, so typing a new limit needs no click.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('maxCommands');

    // The panel shows each cap with what is spent against it.
    const panel = page.getByTestId('budget-panel');
    const commandsRow = panel.locator('li[data-cap="maxCommands"]');
    expect(await commandsRow.getAttribute('data-limit')).toBe('3');
    expect(await commandsRow.getAttribute('data-spent')).toBe('3');
    expect(await panel.locator('li[data-cap="maxTokens"]').getAttribute('data-limit')).toBe('100000');
    expect(await panel.locator('li[data-cap="maxCostUsd"]').count()).toBe(0);
    await screenshot(page, 'budget-01-pause');

    // A raise below what is spent is refused by the stack, and the dialog says why.
    await modal.getByLabel('Commands (the cap hit)').fill('2');
    await modal.getByRole('button', { name: 'Raise and continue' }).click();
    await modal.getByRole('alert').waitFor(WAIT);
    expect(await modal.getByRole('alert').textContent()).toMatch(/maxCommands/);

    // Raise to 5: the run goes on and pauses again at the new cap, and the panel follows the raise.
    await modal.getByLabel('Commands (the cap hit)').fill('5');
    await modal.getByRole('button', { name: 'Raise and continue' }).click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="budget-panel"] li[data-cap="maxCommands"]')
          ?.getAttribute('data-limit') === '5',
      undefined,
      WAIT,
    );
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="breach"]')?.textContent?.includes('5 commands spent of 5 commands') ??
        false,
      undefined,
      WAIT,
    );
    expect(await commandsRow.getAttribute('data-spent')).toBe('5');
    await screenshot(page, 'budget-02-raised');

    // Stop answers the second pause; the log has the raise, by the web UI, and exactly 5 commands.
    await modal.getByRole('button', { name: 'Stop', exact: true }).click();
    await modal.getByRole('button', { name: 'Yes, stop the run' }).click();
    await page.locator('[data-status="stopped"]').first().waitFor(WAIT);
    const events = await allEvents(stack.url, runId);
    expect(ofType(events, 'command')).toHaveLength(5);
    expect(ofType(events, 'caps_raised')).toEqual([expect.objectContaining({ caps: { maxCommands: 5 } })]);
    expect(ofType(events, 'caps_raised')[0]!.by).toMatch(/web/);
    await context.close();
  });

  it("the batch form's cost cap becomes the batch's maxCostUsd", async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/batch`);
    const form = page.getByRole('region', { name: 'Start a batch' });
    await form.getByLabel('baseline').waitFor(WAIT);
    for (const box of await form.locator('input[name="models"]').all())
      await box.setChecked((await box.getAttribute('value')) === 'baseline');
    await form.getByLabel('To level').fill('1');
    await form.getByLabel('Runs per model').fill('1');
    const cap = form.getByLabel(/Batch cost cap/);
    await cap.fill('0');
    await form.getByRole('button', { name: 'Start batch' }).click();
    await form.getByRole('alert').waitFor(WAIT);
    expect(await form.getByRole('alert').textContent()).toMatch(/maxCostUsd: must be more than 0 US dollars/);
    await cap.fill('5');
    await form.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/batch\?id=batch_[0-9a-z]+$/, WAIT);
    const batchId = new URL(page.url()).searchParams.get('id')!;
    const batch = (await (await fetch(`${stack.url}/api/batches/${batchId}`)).json()) as {
      spend: { maxCostUsd: number } | null;
    };
    expect(batch.spend).toMatchObject({ maxCostUsd: 5 });
    await page.close();
  });

  it("a batch's page shows its cost cap, and a raise there lets the runs paused at it go on", async () => {
    // Each call of the fake costs $0.00006, and the proxy keeps room for a call's worst case (about $0.003): two
    // runs sharing $0.005 pause at the cap long before they end.
    const made = await fetch(`${stack.url}/api/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ models: ['quick/mini'], repeats: 2, endLevel: 12, onPause: 'wait', maxCostUsd: 0.005 }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as Batch;
    const read = async () => (await (await fetch(`${stack.url}/api/batches/${id}`)).json()) as Batch;
    await expect.poll(async () => (await read()).spend?.reached, { timeout: 60_000, interval: 250 }).toBe(true);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${stack.url}/batch?id=${id}`);
    const panel = page.getByRole('region', { name: 'Cost cap' });
    await panel.waitFor(WAIT);
    expect(await panel.getAttribute('data-reached')).toBe('true');
    expect(await panel.textContent()).toMatch(/spent of \$0\.0050.*The cap is reached/);
    await screenshot(page, 'budget-batch-cap-reached');
    const paused = (await read()).runs.filter((r) => r.status === 'paused_for_user_action').map((r) => r.id);
    const callsBefore = await Promise.all(
      paused.map(async (runId) => ofType(await allEvents(stack.url, runId), 'llm_call').length),
    );
    await panel.getByLabel('New cap $').fill('1');
    await panel.getByRole('button', { name: 'Raise the cap' }).click();
    await page.getByText('spent of $1.00').waitFor(WAIT);
    expect(await panel.getAttribute('data-reached')).toBe('false');
    // Every run that was paused at the cap was answered by the one raise and made calls again.
    for (const [i, runId] of paused.entries()) {
      await expect
        .poll(async () => ofType(await allEvents(stack.url, runId), 'llm_call').length, { timeout: 30_000 })
        .toBeGreaterThan(callsBefore[i]!);
      const raised = ofType(await allEvents(stack.url, runId), 'caps_raised');
      expect(raised).toEqual([expect.objectContaining({ batchMaxCostUsd: 1 })]);
    }
    await screenshot(page, 'budget-batch-raised');
    for (const run of (await read()).runs)
      await fetch(`${stack.url}/api/runs/${run.id}/actions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'stop' }),
      });
    await page.close();
  });
});
