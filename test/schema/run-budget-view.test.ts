// The run page's reading of a run's caps (web/lib/budget.ts) and its budget pause: the breach stays in
// the open question folded from the event (the dialog and the CLI show it), a raise in the log changes
// the caps in force at once, and each cap's row has what is spent against it from the one fold.
import { describe, expect, it } from 'vitest';
import type { RunEvent, Snapshot } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { spentOf } from '../../schema/run-spend.ts';
import { applyEvents, applySnapshot, initialViewState } from '../../schema/run-view-state.ts';
import { batchCapInForce, capRows, capsInForce, capsOfFields } from '../../web/lib/budget.ts';

const runId = 'run_00000000000000000000test';
const ts = (s: number) => new Date(Date.UTC(2026, 10, 25, 0, 0, s)).toISOString();
const config = runConfigSchema.parse({ caps: { maxCommands: 2, maxCostUsd: 1 } });
const snapshot: Snapshot = {
  run: {
    id: runId,
    config,
    status: 'running',
    currentLevel: 0,
    levelsSolved: 0,
    createdAt: ts(0),
    updatedAt: ts(0),
    startedAt: ts(0),
    endedAt: null,
    lastError: null,
  },
  lastSeq: 0,
  pendingAction: null,
};
const breach = { cap: 'maxCommands' as const, spent: 2, limit: 2, next: 1 };
const log: RunEvent[] = [
  { seq: 1, ts: ts(1), runId, type: 'level_started', level: 0, attempt: 1, retryCount: 0 },
  { seq: 2, ts: ts(2), runId, type: 'command', level: 0, command: 'ls' },
  { seq: 3, ts: ts(3), runId, type: 'command', level: 0, command: 'cat readme' },
  {
    seq: 4,
    ts: ts(4),
    runId,
    type: 'user_action_required',
    reason: 'budget_exceeded',
    level: 0,
    retryCount: 0,
    maxRetries: 3,
    lastError: null,
    lessons: [],
    breach,
  },
] as RunEvent[];

describe('the budget pause on the run page', () => {
  it('keeps the breach in the question folded from the event', () => {
    const { state } = applyEvents(applySnapshot(initialViewState, snapshot), log);
    expect(state.pending).toMatchObject({ reason: 'budget_exceeded', breach });
  });

  it('shows a raise from the log at once, and what is spent against each cap', () => {
    const raised: RunEvent = {
      seq: 5,
      ts: ts(5),
      runId,
      type: 'caps_raised',
      level: 0,
      caps: { maxCommands: 4 },
      by: 'the web UI',
    } as RunEvent;
    const { state } = applyEvents(applySnapshot(initialViewState, snapshot), [...log, raised]);
    const caps = capsInForce(state.run!, state.events);
    expect(caps).toEqual({ maxCommands: 4, maxCostUsd: 1 });
    const rows = capRows(caps, spentOf(state.record, Date.parse(ts(6))));
    expect(rows).toEqual([
      { cap: 'maxCostUsd', limit: 1, spent: 0, share: 0 },
      { cap: 'maxCommands', limit: 4, spent: 2, share: 0.5 },
    ]);
    expect(batchCapInForce(state.run!, state.events)).toBeNull();
  });

  it("takes the summary's raised caps over the config's, and a batch cap raised in the log", () => {
    const run = {
      ...snapshot.run,
      spend: {
        caps: { maxCommands: 8 },
        spent: { costUsd: 0, tokens: 0, wallSeconds: 0, commands: 0, modelCalls: 0 },
        batch: { id: 'batch_x', maxCostUsd: 5, spentUsd: 1 },
      },
    };
    const raised = { type: 'caps_raised', caps: {}, batchMaxCostUsd: 10 } as unknown as RunEvent;
    expect(capsInForce(run, [])).toEqual({ maxCommands: 8, maxCostUsd: 1 });
    expect(batchCapInForce(run, [])).toBe(5);
    expect(batchCapInForce(run, [raised])).toBe(10);
  });

  it('reads the form fields: minutes as seconds, empty as no cap, text as not a number', () => {
    expect(capsOfFields({ maxWallSeconds: '1.5', maxCommands: '', maxTokens: '900' })).toEqual({
      maxWallSeconds: 90,
      maxTokens: 900,
    });
    expect(capsOfFields({ maxCostUsd: 'x' }).maxCostUsd).toBeNaN();
  });
});
