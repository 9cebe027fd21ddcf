// Issue 33 on the real stack, through the web app in Chromium and the CLI: the new-run form plays in the shared world
// unless a person picks a private one, and the run page's header says which; the new-batch form's runs are private by
// default; `run --world` asks for one from the CLI; and the board (web, `board --json`, `board --csv`) keeps a
// model's shared- and private-world runs in separate rows, each naming its world.
import { describe, expect, it, vi } from 'vitest';
import type { Board } from '../../schema/board.ts';
import { batchSchema } from '../../schema/board.ts';
import type { RunSummary } from '../../schema/run.ts';
import { browserForFile, screenshot } from '../support/browser.ts';
import { apiJson, runCli } from '../support/cli-process.ts';
import { stackForFile } from '../support/stack-process.ts';

const stack = stackForFile('worlds');
const browser = browserForFile();
const WAIT = { timeout: 60_000 };

const summary = (id: string) => apiJson<RunSummary>(stack().url, `/api/runs/${id}`);
const ended = (id: string) =>
  vi.waitFor(async () => expect((await summary(id)).status).toBe('completed'), { timeout: 60_000, interval: 200 });

describe('shared and private worlds', () => {
  it('are chosen in the forms and the CLI, named on the run page, and kept apart on the board', async () => {
    const page = await (await browser().newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(stack().url);
    const runForm = page.getByRole('region', { name: 'Start a run' });
    const world = runForm.getByLabel('World');
    await world.waitFor(WAIT);
    // A person practising plays in the shared world unless they ask.
    expect(await world.inputValue()).toBe('shared');
    await world.selectOption('private');
    await runForm.getByLabel('To level').fill('0');
    await runForm.getByLabel('Watch at a readable pace').setChecked(false);
    await runForm.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/run\?id=run_[0-9a-z]+$/, WAIT);
    const privateRun = new URL(page.url()).searchParams.get('id')!;
    const header = page.locator('.run-header [data-world]');
    await expect.poll(() => header.textContent(), WAIT).toBe('private world');
    expect(await header.getAttribute('data-world')).toBe('private');
    expect((await summary(privateRun)).config).toMatchObject({ world: 'private', worldKey: privateRun });
    await screenshot(page, 'worlds-run-header');

    await page.goto(`${stack().url}/batch`);
    const batchForm = page.getByRole('region', { name: 'Start a batch' });
    await batchForm.getByLabel('baseline').waitFor(WAIT);
    // A batch is a benchmark: a world of its own for each run, unless the person shares one.
    expect(await batchForm.getByLabel('World').inputValue()).toBe('private');
    await batchForm.getByLabel('To level').fill('0');
    await batchForm.getByLabel('Runs per model').fill('1');
    await batchForm.getByRole('button', { name: 'Start batch' }).click();
    await page.waitForURL(/\/batch\?id=batch_/, WAIT);
    const batchId = new URL(page.url()).searchParams.get('id')!;
    await page.locator('[data-world="private"]').getByText('each run in a private world of its own').waitFor(WAIT);
    const batch = batchSchema.parse(await apiJson(stack().url, `/api/batches/${batchId}`));
    expect(batch.runs.map((r) => r.config.world)).toEqual(['private']);

    // From the CLI: one run in the shared world, said out loud, as a person's run is by default.
    const cli = await runCli(stack().url, ['run', '--levels', '0', '--world', 'shared', '--no-follow', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const sharedRun = (JSON.parse(cli.stdout) as { runs: string[] }).runs[0]!;
    expect((await summary(sharedRun)).config.world).toBe('shared');
    const refused = await runCli(stack().url, ['run', '--target', 'bandit', '--levels', '0', '--world', 'private']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/world: the real Bandit server has one world/);

    for (const id of [privateRun, batch.runs[0]!.id, sharedRun]) await ended(id);
    // Two rows for the baseline: the private-world runs (the form's and the batch's) and the shared one.
    const rowsOf = (board: Board) =>
      board.models.filter((m) => m.model === 'baseline').map((m) => [m.world, m.runs] as const);
    await vi.waitFor(
      async () => {
        const board = await apiJson<Board>(stack().url, '/api/board');
        expect(rowsOf(board).sort()).toEqual([
          ['private', 2],
          ['shared', 1],
        ]);
      },
      { timeout: 30_000, interval: 250 },
    );
    const json = await runCli(stack().url, ['board', '--json']);
    expect(rowsOf(JSON.parse(json.stdout) as Board).sort()).toEqual([
      ['private', 2],
      ['shared', 1],
    ]);
    const csv = await runCli(stack().url, ['board', '--csv']);
    const [head, ...lines] = csv.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const column = (name: string) => head!.indexOf(name);
    const csvRows = lines
      .filter((l) => l[column('kind')] === 'model' && l[column('model')] === 'baseline')
      .map((l) => [l[column('world')], l[column('runs')]]);
    expect(csvRows.sort()).toEqual([
      ['private', '2'],
      ['shared', '1'],
    ]);

    await page.goto(`${stack().url}/board`);
    const rows = page.locator('.board-models tbody tr[data-model="baseline"]');
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    const worlds = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-world')));
    expect(worlds.sort()).toEqual(['private', 'shared']);
    await screenshot(page, 'worlds-board');
  });
});
