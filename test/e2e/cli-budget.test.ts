// The CLI's caps against the real stack (`npm start`'s own script), as a script runs it: a baseline run
// with --max-commands 3 and --on-budget stop pauses at its fourth command and is stopped there, with the
// budget exit code; raise=2 raises the cap once (to 6) and stops the run at its second hit; a bad cap
// value is one usage line naming the flag. On a terminal (tmux) a person answers the budget prompt:
// raise to the limit offered, then stop at the second pause. A batch of a priced model (a fake
// OpenAI-compatible endpoint) with --batch-max-cost stops at the batch's cap, its runs' calls within it.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../cli/exit-codes.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import { baselineResponder } from '../../scripts/fake-llm/baseline-responder.ts';
import { allEvents, runCli } from '../support/cli-process.ts';
import type { FakeOpenAi } from '../support/fake-openai.ts';
import { startFakeOpenAi } from '../support/fake-openai.ts';
import { stackForFile } from '../support/stack-process.ts';
import { TmuxPane } from '../support/tmux-pane.ts';

// A priced model behind a fake endpoint; the stack reads PROVIDERS when it starts, after this.
let fake: FakeOpenAi;
const env: Record<string, string> = {};
beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.respond(baselineResponder({ pieceDelayMs: 0, persona: 'Quick' }));
  const model = { name: 'mini', price: { input: 0.15, output: 0.6 } };
  env.PROVIDERS = JSON.stringify({ providers: [{ name: 'quick', baseUrl: fake.baseUrl, models: [model] }] });
});
afterAll(async () => {
  await fake?.close();
});
const stack = stackForFile('cli-budget', env);
const cli = (args: string[]) => runCli(stack().url, args);
const base = ['run', '--model', 'baseline', '--levels', '0-12', '--json'];

const commandsOf = (events: RunEvent[]) => events.filter((e) => e.type === 'command').length;
const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('bandit-runner run with caps', () => {
  it('--max-commands 3 --on-budget stop: the run pauses before its fourth command and stops, exit 8', async () => {
    const result = await cli([...base, '--max-commands', '3', '--on-budget', 'stop']);
    expect(result.code, result.stderr).toBe(EXIT.budget);
    const out = JSON.parse(result.stdout) as { runs: { id: string; status: string; limitReason: string }[] };
    expect(out.runs[0]).toMatchObject({ status: 'stopped', limitReason: 'maxCommands' });
    // Said on stderr (stdout stays JSON): the breach, then the stop.
    expect(result.stderr).toMatch(/paused at the run's command cap: 3 commands spent of 3 commands/);
    expect(result.stderr).toMatch(/--on-budget stop: stopping the run/);
    const events = await allEvents(stack().url, out.runs[0]!.id);
    expect(commandsOf(events)).toBe(3);
    const [pause] = ofType(events, 'user_action_required');
    expect(pause).toMatchObject({ reason: 'budget_exceeded', breach: { cap: 'maxCommands', spent: 3, limit: 3 } });
    expect(ofType(events, 'user_action_resolved').map((e) => e.action)).toEqual(['stop']);
  });

  it('--on-budget raise=2: the cap goes from 3 to 6 once, and the second hit stops the run', async () => {
    const result = await cli([...base, '--max-commands', '3', '--on-budget', 'raise=2']);
    expect(result.code, result.stderr).toBe(EXIT.budget);
    expect(result.stderr).toMatch(/raised from 3 commands to 6 commands/);
    expect(result.stderr).toMatch(/was hit again after it was raised once \(--on-budget raise=2\): stopping the run/);
    const id = (JSON.parse(result.stdout) as { runs: { id: string }[] }).runs[0]!.id;
    const events = await allEvents(stack().url, id);
    expect(commandsOf(events)).toBe(6);
    expect(ofType(events, 'caps_raised').map((e) => e.caps)).toEqual([{ maxCommands: 6 }]);
    expect(ofType(events, 'user_action_required').map((e) => e.breach)).toEqual([
      expect.objectContaining({ cap: 'maxCommands', spent: 3, limit: 3 }),
      expect.objectContaining({ cap: 'maxCommands', spent: 6, limit: 6 }),
    ]);
    // The spend the stack reports agrees.
    const summary = (await (await fetch(`${stack().url}/api/runs/${id}`)).json()) as {
      spend: { caps: { maxCommands: number }; spent: { commands: number } };
    };
    expect(summary.spend).toMatchObject({ caps: { maxCommands: 6 }, spent: { commands: 6 } });
  });

  it('a bad cap is one usage line naming its flag, and nothing starts', async () => {
    const result = await cli([...base, '--max-cost', '0']);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--max-cost must be more than 0 US dollars/);
    const time = await cli([...base, '--max-time', 'soon']);
    expect(time.code).toBe(EXIT.usage);
    expect(time.stderr).toMatch(/--max-time must be seconds, or like 90s, 15m or 2h/);
  });
});

describe('bandit-runner run with caps, on a terminal', () => {
  it('asks at the budget pause: raise to the limit offered, then stop; exit 8', async () => {
    const root = join(import.meta.dirname, '../..');
    const pane = TmuxPane.start('cli-budget', { cols: 200, rows: 50 }, root, { NO_COLOR: '1' });
    try {
      pane.type(
        `${process.execPath} cli/main.ts --url ${stack().url} run --model baseline --levels 0-12 --max-commands 2; echo EXIT=$?`,
        true,
      );
      await pane.waitFor(/What now\?/, { timeout: 90_000 });
      expect(pane.screen()).toMatch(/paused at the run's command cap: 2 commands spent of 2 commands/);
      // The first choice raises; the limit offered is twice the old one.
      pane.press('Enter');
      await pane.waitFor(/New limit \(now 2 commands\)/);
      expect(pane.screen()).toMatch(/\(4\)/);
      pane.press('Enter');
      await pane.waitFor(/4 commands spent of 4 commands/, { timeout: 60_000 });
      await pane.waitFor(/What now\?/);
      // The second choice stops.
      pane.press('Down');
      pane.press('Enter');
      const text = await pane.waitFor(/EXIT=\d/, { history: true, timeout: 60_000 });
      expect(text).toMatch(/▲ the run's command cap to 4 commands \(by the CLI\)/);
      expect(text).toMatch(/stopped at the run's command cap \(4 commands spent\)/);
      expect(text).toMatch(/EXIT=8/);
    } finally {
      pane.kill();
    }
  });
});

describe('bandit-runner run, a batch with a cost cap', () => {
  it('--batch-max-cost: the runs pause at the batch cap, the CLI stops them, their calls within it, exit 8', async () => {
    // Each call of the fake costs $0.00006 (200 + 50 tokens), a run of 13 levels about $0.0011; the worst case
    // the proxy must keep room for is about $0.003 a call (4,096 tokens of answer at $0.60/Mtok, and the prompt),
    // so the batch runs until what is left is below that, well before both runs end.
    const CAP = 0.005;
    const result = await cli([
      'run',
      '--model',
      'quick/mini',
      '--repeats',
      '2',
      '--levels',
      '0-12',
      '--on-pause',
      'wait',
      '--batch-max-cost',
      String(CAP),
      '--on-budget',
      'stop',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(EXIT.budget);
    const out = JSON.parse(result.stdout) as { batchId: string; runs: { id: string; limitReason: string }[] };
    // A run may have finished before the cap came near; the others stopped at it.
    const reasons = out.runs.map((r) => r.limitReason);
    expect(reasons).toContain('batchMaxCostUsd');
    for (const reason of reasons) expect([null, 'batchMaxCostUsd']).toContain(reason);
    expect(result.stderr).toMatch(/paused at the batch's cost cap: .* spent of \$0\.0050/);
    let spent = 0;
    for (const run of out.runs) {
      const events = await allEvents(stack().url, run.id);
      spent += ofType(events, 'llm_call').reduce((sum, e) => sum + (e.costUsd ?? 0), 0);
    }
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(CAP);
    const batch = (await (await fetch(`${stack().url}/api/batches/${out.batchId}`)).json()) as {
      spend: { maxCostUsd: number; spentUsd: number };
    };
    expect(batch.spend.maxCostUsd).toBe(CAP);
    expect(batch.spend.spentUsd).toBeCloseTo(spent, 9);
  });
});
