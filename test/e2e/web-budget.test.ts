// Caps in the web UI, in real Chromium against the real stack (baseline model): a run started from the
// form with a command cap shows the Budget panel, pauses at the cap with the breach in the dialog
// (Raise and Stop only), a raise from the dialog takes it on to the new cap, and the panel follows; the
// batch form sends its cost cap as the batch's maxCostUsd.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../schema/protocol.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import { allEvents } from '../support/cli-process.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-web-budget-'));
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
});
