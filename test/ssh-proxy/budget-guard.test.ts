// The spend guard alone: the worst case a request is judged by, what "would cross" means for each cap,
// that what a call has spent counts against the next step, and wall time on an injected clock.
import { describe, expect, it } from 'vitest';
import type { AdvanceSpend } from '../../schema/budget.ts';
import { NOTHING_SPENT } from '../../schema/budget.ts';
import { SpendGuard } from '../../ssh-proxy/agent/spend-guard.ts';
import type { CallReport } from '../../ssh-proxy/models/agent-model.ts';
import { NO_COST, promptBound, worstCase } from '../../ssh-proxy/models/worst-case.ts';

const report = (promptTokens: number, completionTokens: number, costUsd: number | null): CallReport => ({
  stage: 'plan',
  promptTokens,
  completionTokens,
  costUsd,
  latencyMs: 1,
  ttftMs: null,
  errorClass: null,
  request: null,
  response: null,
});
const guard = (spend: Partial<AdvanceSpend>, now?: () => number) =>
  new SpendGuard({ caps: {}, spent: NOTHING_SPENT, ...spend }, now);

describe('the worst case of a request', () => {
  it('bounds the prompt by the UTF-8 bytes of its messages and tools as JSON, plus max_tokens', () => {
    const messages = [{ role: 'user', content: 'ü 🙂 ok' }];
    const tools = [{ type: 'function', function: { name: 'run_command' } }];
    const json = JSON.stringify({ messages, tools });
    // ü is 2 bytes and 🙂 4, so the bound is more than the string's length: a character is never one token less.
    expect(promptBound({ messages, tools })).toBe(json.length + 1 + 2);
    const worst = worstCase({ messages, tools, max_tokens: 500 }, { input: 3, output: 15 });
    expect(worst.tokens).toBe(promptBound({ messages, tools }) + 500);
    expect(worst.costUsd).toBeCloseTo((promptBound({ messages, tools }) * 3 + 500 * 15) / 1e6, 15);
    expect(worstCase({ messages, max_tokens: 1 }, null).costUsd).toBeNull();
  });
});

describe('SpendGuard', () => {
  it('admits everything without caps', () => {
    const free = new SpendGuard(undefined);
    expect(free.admit({ tokens: 1e9, costUsd: null })).toBeNull();
    expect(free.admitCommand()).toBeNull();
  });

  it('a step that reaches a cap exactly is taken; one that would pass it is not', () => {
    const g = guard({ caps: { maxCostUsd: 1, maxTokens: 1000 }, spent: { ...NOTHING_SPENT, costUsd: 0.4 } });
    expect(g.admit({ tokens: 1000, costUsd: 0.6 })).toBeNull();
    expect(g.admit({ tokens: 1001, costUsd: 0.1 })).toMatchObject({
      kind: 'breach',
      breach: { cap: 'maxTokens', spent: 0, limit: 1000, next: 1001 },
    });
    expect(g.admit({ tokens: 10, costUsd: 0.61 })).toMatchObject({
      kind: 'breach',
      breach: { cap: 'maxCostUsd', spent: 0.4, limit: 1, next: 0.61 },
      message: expect.stringMatching(/^paused at the run's cost cap: \$0\.4000 spent of \$1\.00/),
    });
  });

  it("counts what the call spent (failed requests too) against the next request and the run's figures", () => {
    const g = guard({ caps: { maxModelCalls: 3, maxCostUsd: 1 }, spent: { ...NOTHING_SPENT, modelCalls: 1 } });
    g.count(report(100, 20, 0.5));
    expect(g.admit({ tokens: 0, costUsd: 0.5 })).toBeNull();
    g.count({ ...report(0, 0, null), errorClass: 'timeout' });
    expect(g.spent()).toMatchObject({ modelCalls: 3, tokens: 120, costUsd: 0.5 });
    expect(g.admit(NO_COST)).toMatchObject({ breach: { cap: 'maxModelCalls', spent: 3, limit: 3, next: 1 } });
  });

  it('counts each command it admits, and refuses the one past maxCommands', () => {
    const g = guard({ caps: { maxCommands: 2 }, spent: { ...NOTHING_SPENT, commands: 1 } });
    expect(g.admitCommand()).toBeNull();
    expect(g.spent().commands).toBe(2);
    expect(g.admitCommand()).toMatchObject({ breach: { cap: 'maxCommands', spent: 2, limit: 2, next: 1 } });
    expect(g.spent().commands).toBe(2);
  });

  it('wall time: commands start while time is left, none once the run has used its cap', () => {
    let now = 1_000_000;
    const g = guard({ caps: { maxWallSeconds: 60 }, spent: { ...NOTHING_SPENT, wallSeconds: 59 } }, () => now);
    now += 999;
    expect(g.admitCommand()).toBeNull();
    now += 1;
    expect(g.admitCommand()).toMatchObject({ breach: { cap: 'maxWallSeconds', spent: 60, limit: 60, next: 0 } });
    // Wall time bounds commands, not model calls.
    expect(g.admit(NO_COST)).toBeNull();
  });

  it("a batch's share: within it, go; past it, yield asking for the need, or pause when nothing more is left", () => {
    const batch = { allowanceUsd: 0.1, exhaustive: false, spentUsd: 2, maxCostUsd: 3 };
    const g = guard({ batch });
    expect(g.admit({ tokens: 1, costUsd: 0.1 })).toBeNull();
    g.count(report(1, 1, 0.04));
    expect(g.allowanceNeededUsd).toBeNull();
    expect(g.admit({ tokens: 1, costUsd: 0.07 })).toMatchObject({ kind: 'yield', needUsd: 0.07 });
    expect(g.allowanceNeededUsd).toBe(0.07);

    const last = guard({ batch: { ...batch, exhaustive: true } });
    last.count(report(1, 1, 0.04));
    expect(last.admit({ tokens: 1, costUsd: 0.07 })).toMatchObject({
      kind: 'breach',
      breach: { cap: 'batchMaxCostUsd', spent: 2.04, limit: 3, next: 0.07 },
    });
    // The baseline costs nothing, so it never waits for the batch.
    expect(guard({ batch: { ...batch, allowanceUsd: 0 } }).admit(NO_COST)).toBeNull();
  });

  it('a cost cap with a model that has no price is refused, not guessed', () => {
    expect(guard({ caps: { maxCostUsd: 5 } }).admit({ tokens: 1, costUsd: null })).toMatchObject({
      kind: 'breach',
      breach: { cap: 'maxCostUsd', spent: 0, limit: 5 },
      message: expect.stringMatching(/no price/),
    });
    const batch = { allowanceUsd: 1, exhaustive: false, spentUsd: 0, maxCostUsd: 3 };
    expect(guard({ batch }).admit({ tokens: 1, costUsd: null })).toMatchObject({ breach: { cap: 'batchMaxCostUsd' } });
  });
});
