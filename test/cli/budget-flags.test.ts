// The `run` command's budget flags: each cap's value is refused in one line naming its flag (the
// schema's own words), durations read as seconds, --on-budget reads ask/stop/raise=X, and the caps
// reach the run's (or the batch's) body as the API would take them.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  batchCostOption,
  capOption,
  capsFrom,
  capsText,
  defaultOnBudget,
  durationOption,
  onBudgetOption,
  parseDuration,
} from '../../cli/budget-flags.ts';
import { CliError, EXIT, exitForRuns, exitForStatuses } from '../../cli/exit-codes.ts';
import { planRun } from '../../cli/run-plan.ts';

const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    if (err instanceof InvalidArgumentError || err instanceof CliError) return err.message;
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('cap flags', () => {
  it('reads each cap as a number, a leading $ for dollars', () => {
    expect(capOption('maxCostUsd')('2')).toBe(2);
    expect(capOption('maxCostUsd')('$0.50')).toBe(0.5);
    expect(capOption('maxTokens')('12000')).toBe(12000);
    expect(capOption('maxCommands')('3')).toBe(3);
    expect(capOption('maxModelCalls')('40')).toBe(40);
  });

  it("refuses a bad value in the schema's words, naming the flag", () => {
    expect(refusal(() => capOption('maxCostUsd')('0'))).toBe(
      '--max-cost must be more than 0 US dollars (leave it out for no cap)',
    );
    expect(refusal(() => capOption('maxCommands')('2.5'))).toBe('--max-commands must be a whole number of commands');
    expect(refusal(() => capOption('maxTokens')('lots'))).toBe('--max-tokens must be a number, e.g. 50');
    expect(refusal(() => capOption('maxCostUsd')('-1'))).toMatch(/^--max-cost must be a number/);
    expect(refusal(() => capOption('maxModelCalls')('1e20'))).toMatch(/^--max-model-calls/);
  });

  it('reads --max-time as seconds or with s, m, h', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('2h')).toBe(7200);
    expect(parseDuration('1.5m')).toBe(90);
    expect(parseDuration('ten minutes')).toBeNull();
    expect(durationOption('15m')).toBe(900);
    expect(refusal(() => durationOption('0s'))).toMatch(/^--max-time must be more than 0 seconds/);
    expect(refusal(() => durationOption('0.5s'))).toBe('--max-time must be a whole number of seconds');
    expect(refusal(() => durationOption('5d'))).toBe('--max-time must be seconds, or like 90s, 15m or 2h');
  });

  it('--batch-max-cost is a cost cap', () => {
    expect(batchCostOption('20')).toBe(20);
    expect(refusal(() => batchCostOption('0'))).toMatch(/^--batch-max-cost must be more than 0 US dollars/);
    expect(refusal(() => batchCostOption('x'))).toBe('--batch-max-cost must be a number of US dollars, e.g. 20');
  });

  it('says the caps for --dry-run in RUN_CAPS order', () => {
    expect(capsText({ maxCommands: 3, maxCostUsd: 2, maxWallSeconds: 900 })).toBe('caps $2.00, 900 s, 3 commands');
    expect(capsText(undefined)).toBe('');
  });

  it('gathers the given caps, and none when none is given', () => {
    expect(capsFrom({ maxCostUsd: undefined })).toBeUndefined();
    expect(capsFrom({ maxCommands: 3, maxWallSeconds: 900, maxTokens: undefined })).toEqual({
      maxCommands: 3,
      maxWallSeconds: 900,
    });
  });
});

describe('--on-budget', () => {
  it('reads ask, stop and raise=X', () => {
    expect(onBudgetOption('ask')).toEqual({ kind: 'ask' });
    expect(onBudgetOption('STOP')).toEqual({ kind: 'stop' });
    expect(onBudgetOption('raise=2')).toEqual({ kind: 'raise', factor: 2 });
    expect(onBudgetOption('raise=1.5')).toEqual({ kind: 'raise', factor: 1.5 });
  });

  it('refuses a raise that would not raise, and anything else', () => {
    expect(refusal(() => onBudgetOption('raise=1'))).toMatch(/X must be above 1/);
    expect(refusal(() => onBudgetOption('raise=0.5'))).toMatch(/X must be above 1/);
    expect(refusal(() => onBudgetOption('raise'))).toBe('--on-budget must be ask, stop, or raise=X (e.g. raise=2)');
    expect(refusal(() => onBudgetOption('wait'))).toBe('--on-budget must be ask, stop, or raise=X (e.g. raise=2)');
  });

  it('defaults to ask on a terminal and stop otherwise or when hands-off', () => {
    expect(defaultOnBudget('ask', true)).toEqual({ kind: 'ask' });
    expect(defaultOnBudget('ask', false)).toEqual({ kind: 'stop' });
    expect(defaultOnBudget('stop', true)).toEqual({ kind: 'stop' });
  });
});

describe('caps in the plan', () => {
  const base = { target: 'practice', levels: '0-3', model: 'baseline', repeats: 1, onPause: 'wait' as const };

  it("puts the caps in one run's config", () => {
    const plan = planRun({ ...base, caps: { maxCommands: 3, maxCostUsd: 1 } });
    expect(plan.kind === 'run' && plan.config.caps).toEqual({ maxCommands: 3, maxCostUsd: 1 });
  });

  it('refuses --batch-max-cost for one run, saying which flag fits', () => {
    expect(refusal(() => planRun({ ...base, batchMaxCost: 5 }))).toMatch(/for one run use --max-cost/);
  });

  it("puts --batch-max-cost in the batch's body, and refuses run caps for a batch", () => {
    const plan = planRun({ ...base, repeats: 2, batchMaxCost: 5 });
    expect(plan.kind === 'batch' && plan.batch.maxCostUsd).toBe(5);
    expect(refusal(() => planRun({ ...base, repeats: 2, caps: { maxCommands: 3 } }))).toMatch(
      /cap a single run; for a batch use --batch-max-cost/,
    );
  });
});

describe('exit codes', () => {
  it('tells a run stopped at a budget from other stops', () => {
    expect(exitForRuns([{ status: 'stopped', atBudget: true }])).toBe(EXIT.budget);
    expect(exitForRuns([{ status: 'stopped', atBudget: false }])).toBe(EXIT.stopped);
    expect(exitForRuns([{ status: 'completed', atBudget: false }])).toBe(EXIT.completed);
    // Worst first: failed, another stop, a budget stop, then a pause.
    expect(
      exitForRuns([
        { status: 'stopped', atBudget: true },
        { status: 'paused_for_user_action', atBudget: false },
      ]),
    ).toBe(EXIT.budget);
    expect(
      exitForRuns([
        { status: 'stopped', atBudget: true },
        { status: 'stopped', atBudget: false },
      ]),
    ).toBe(EXIT.stopped);
    expect(exitForStatuses(['stopped', 'failed'])).toBe(EXIT.failed);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
  });
});
