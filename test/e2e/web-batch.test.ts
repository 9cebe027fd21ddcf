// A batch from the UI on the real stack (`npm start`'s own script), with a providers file of two
// fake endpoints that stream (the ones scripts/fake-providers.ts starts by hand): the batch page
// shows each run and its place in the queue, a run page shows the thinking as it is written, a
// restart of the stack keeps the line, and the board reads the results. Screenshots of each step
// go to test-results/screenshots/.
import { levelSetOf } from '../../schema/level-sets.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { batchSchema, boardSchema } from '../../schema/board.ts';
import { queueStatusSchema } from '../../schema/queue.ts';
import { FINAL_STATUSES } from '../../schema/run.ts';
import type { QueueStatus } from '../../schema/queue.ts';
import { baselineResponder } from '../../scripts/fake-llm/baseline-responder.ts';
import { launchChromium, screenshot } from '../support/browser.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startFakeOpenAi } from '../support/fake-openai.ts';
import type { StackProcess } from '../support/stack-process.ts';
import { startStackProcess } from '../support/stack-process.ts';

const WAIT = { timeout: 60_000 };
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-batch-'));
let stack: StackProcess;
let browser: Browser;
let quick: FakeOpenAi;
let ponder: FakeOpenAi;
let env: Record<string, string>;

beforeAll(async () => {
  quick = await startFakeOpenAi();
  quick.respond(baselineResponder({ pieceDelayMs: 10, persona: 'Quick' }));
  ponder = await startFakeOpenAi();
  // Slow enough that a run page sees its thinking grow over several seconds.
  ponder.respond(baselineResponder({ pieceDelayMs: 150, persona: 'Ponder' }));
  const providers = {
    providers: [
      {
        name: 'quick',
        baseUrl: quick.baseUrl,
        apiKeyEnv: 'QUICK_API_KEY',
        maxConcurrent: 2,
        models: [{ name: 'mini', price: { input: 0.15, output: 0.6 } }],
      },
      {
        name: 'ponder',
        baseUrl: ponder.baseUrl,
        maxConcurrent: 1,
        models: [{ name: 'deep', price: { input: 3, output: 15 } }],
      },
    ],
  };
  env = { PROVIDERS: JSON.stringify(providers), QUICK_API_KEY: 'sk-quick-e2e', MAX_RUNNING_RUNS: '2' };
  [stack, browser] = await Promise.all([startStackProcess(stateDir, undefined, env), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await quick?.close();
  await ponder?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

const queue = async (): Promise<QueueStatus> =>
  queueStatusSchema.parse(await (await fetch(`${stack.url}/api/queue`)).json());

/** What a failed wait prints: each run not ended, its status and its last events, so a stuck run names itself. */
async function unfinished(batchId: string): Promise<string> {
  const batch = batchSchema.parse(await (await fetch(`${stack.url}/api/batches/${batchId}`)).json());
  const lines = [`queue: ${JSON.stringify(await queue())}`];
  for (const run of batch.runs.filter((r) => !FINAL_STATUSES.includes(r.status))) {
    const log = (await (await fetch(`${stack.url}/api/runs/${run.id}/events?since=0&limit=1000`)).json()) as {
      events: { seq: number; type: string }[];
    };
    const tail = log.events.slice(-12).map((e) => JSON.stringify(e).slice(0, 300));
    const own = (await (await fetch(`${stack.url}/api/runs/${run.id}`)).json()) as { status?: string };
    lines.push(`${run.id} ${run.config.model} D1 says ${run.status}, its object ${own.status}:`, ...tail);
  }
  // The stack's own words about D1 and errors: a run whose index row lags its object says why here.
  const said = stack
    .output()
    .split('\n')
    .filter((l) => /mirror|D1|error|Error|failed/.test(l))
    .slice(-30);
  return [...lines, 'stack output (D1, errors):', ...said].join('\n');
}

describe('a batch from the UI', () => {
  it('queues, streams the thinking, keeps its line across a restart, and fills the board', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${stack.url}/batch`);
    const form = page.getByRole('region', { name: 'Start a batch' });
    await form.getByLabel('ponder/deep').waitFor(WAIT);
    // Exactly the two providers' models, three runs each, levels 0–2, hands-off.
    for (const model of ['baseline', 'quick/mini', 'ponder/deep'])
      await form.getByLabel(model).setChecked(model !== 'baseline');
    await form.getByLabel('To level').fill('2');
    await form.getByLabel('Runs per model').fill('3');
    // The forecast follows the choice: neither model has run here, so each says "no history".
    const forecast = form.getByRole('region', { name: 'Forecast' });
    await forecast
      .locator('[data-forecast-model="ponder/deep"]')
      .getByText('no history', { exact: true })
      .waitFor(WAIT);
    expect(await forecast.locator('[data-forecast-model]').count()).toBe(2);
    await screenshot(page, 'batch-1-form');
    await form.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/batch\?id=batch_/, WAIT);
    const batchId = new URL(page.url()).searchParams.get('id')!;

    // Six runs, at most two at once: the rest wait with their places shown.
    await page
      .getByText(/#\d+ in line/)
      .first()
      .waitFor(WAIT);
    await screenshot(page, 'batch-2-queued');
    const line = await queue();
    expect(line.running.length).toBeLessThanOrEqual(2);
    expect(line.waiting.length).toBeGreaterThan(0);

    // A ponder run's page: its thinking appears word by word before the call ends.
    const made = batchSchema.parse(await (await fetch(`${stack.url}/api/batches/${batchId}`)).json());
    const slow = made.runs.find((r) => r.config.model === 'ponder/deep')!;
    const runPage = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await runPage.goto(`${stack.url}/run?id=${slow.id}`);
    const live = runPage.locator('[data-live="true"]');
    await live.waitFor(WAIT);
    const first = (await live.textContent()) ?? '';
    await vi.waitFor(
      async () => expect(((await live.textContent().catch(() => '')) ?? '').length).toBeGreaterThan(first.length),
      { timeout: 10_000, interval: 50 },
    );
    await vi.waitFor(
      async () => expect(await live.textContent({ timeout: 2_000 }).catch(() => '')).toMatch(/Ponder on level \d/),
      { timeout: 20_000, interval: 50 },
    );
    await screenshot(runPage, 'batch-3-thinking-live');
    await runPage.close();

    // A restart with runs still waiting: the same line, in the same order, less any that started.
    // A run may start ahead of one before it when that one's provider is at its own limit, so the
    // line after is the line before with the started runs taken out, not necessarily its tail.
    const before = await queue();
    expect(before.waiting.length).toBeGreaterThan(0);
    const { ports } = stack;
    expect(await stack.stop()).toBe(0);
    stack = await startStackProcess(stateDir, ports, env);
    const after = await queue();
    const waitingBefore = before.waiting.map((m) => m.runId);
    const waitingAfter = after.waiting.map((m) => m.runId);
    expect(waitingAfter.filter((id) => !waitingBefore.includes(id))).toEqual([]);
    expect(waitingBefore.filter((id) => waitingAfter.includes(id))).toEqual(waitingAfter);
    expect(after.waiting.map((m) => m.position)).toEqual(waitingAfter.map((_, i) => i + 1));

    // Every run ends on its own (hands-off), and the board has each model's row and cells.
    await vi
      .waitFor(
        async () => {
          const batch = batchSchema.parse(await (await fetch(`${stack.url}/api/batches/${batchId}`)).json());
          expect(batch.progress.done).toBe(6);
        },
        { timeout: 180_000, interval: 500 },
      )
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await unfinished(batchId)}`);
      });
    const board = boardSchema.parse(await (await fetch(`${stack.url}/api/board?batch=${batchId}`)).json());
    expect(board.models.map((m) => m.model).sort()).toEqual(['ponder/deep', 'quick/mini']);
    for (const model of board.models) {
      expect(model.runs).toBe(3);
      expect(model.levelsSolvedAlone).toBeGreaterThan(0);
      expect(model.costUsd).toBeGreaterThan(0);
    }
    await page.goto(`${stack.url}/batch?id=${batchId}`);
    await page.getByText('6 of 6 ended').waitFor(WAIT);
    await page.locator('.board-matrix').waitFor(WAIT);
    // Forecast against actual: what each model's three runs spent, as the board counts it.
    for (const model of board.models) {
      const row = page.locator(`[data-actual-model="${model.model}"]`);
      await row.getByText('3 of 3').waitFor(WAIT);
      expect(await row.locator('[data-actual-cost]').textContent()).not.toBe('$0');
    }
    await screenshot(page, 'batch-4-results');
    await page.goto(`${stack.url}/board`);
    await page.locator('.board-models tbody tr').first().waitFor(WAIT);
    const rows = await page
      .locator('.board-models tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-model')));
    expect(rows).toEqual(expect.arrayContaining(['ponder/deep', 'quick/mini']));
    // Each row names the level set it was measured on: this range's catalogue.
    const sets = await page
      .locator('.board-models tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-level-set')));
    expect(new Set(sets)).toEqual(new Set([levelSetOf('practice', Date.now())]));
    await page.locator('.cost-chart svg').waitFor(WAIT);
    await screenshot(page, 'batch-5-board');

    // The next batch's forecast rests on this one: each model's three runs at every level.
    await page.goto(`${stack.url}/batch`);
    const next = page.getByRole('region', { name: 'Start a batch' });
    await next.getByLabel('ponder/deep').waitFor(WAIT);
    for (const model of ['baseline', 'quick/mini', 'ponder/deep'])
      await next.getByLabel(model).setChecked(model !== 'baseline');
    await next.getByLabel('To level').fill('2');
    for (const model of ['quick/mini', 'ponder/deep'])
      await next
        .locator(`[data-forecast-model="${model}"]`)
        .getByText('L0 3 runs · L1 3 runs · L2 3 runs')
        .waitFor(WAIT);
    expect(await next.locator('[data-forecast-total]').textContent()).toMatch(/From past runs .*\$0\.\d+ – \$0\.\d+/);
    await screenshot(page, 'batch-6-forecast');
  });
});
