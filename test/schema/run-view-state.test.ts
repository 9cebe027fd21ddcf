// The run page's fold of snapshot and events: each event once, a gap detected, the open question
// opened by user_action_required and closed by its answer, counters summed.
import { describe, expect, it } from 'vitest';
import type { RunEvent, Snapshot } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { applyEvents, applyLive, applySnapshot, initialViewState } from '../../schema/run-view-state.ts';

const runId = 'run_00000000000000000000test';
const ts = '2026-11-21T12:00:00.000Z';
const config = runConfigSchema.parse({ maxRetries: 1 });
const snapshot: Snapshot = {
  run: {
    id: runId,
    config,
    status: 'running',
    currentLevel: 0,
    levelsSolved: 0,
    createdAt: ts,
    updatedAt: ts,
    startedAt: ts,
    endedAt: null,
    lastError: null,
  },
  lastSeq: 0,
  pendingAction: null,
};
const pause = {
  reason: 'max_retries' as const,
  level: 1,
  retryCount: 1,
  maxRetries: 1,
  lastError: 'no password',
  lessons: [],
};

const log: RunEvent[] = [
  { seq: 1, ts, runId, type: 'level_started', level: 0, attempt: 1, retryCount: 0 },
  {
    seq: 2,
    ts,
    runId,
    type: 'llm_call',
    callId: 'c1',
    model: 'm',
    stage: 'plan',
    level: 0,
    promptTokens: 100,
    completionTokens: 20,
    latencyMs: 5,
    costUsd: 0.002,
    errorClass: null,
  },
  { seq: 3, ts, runId, type: 'level_complete', level: 0, nextLevel: 1, commands: 1, durationMs: 9 },
  { seq: 4, ts, runId, type: 'user_action_required', ...pause },
  { seq: 5, ts, runId, type: 'status_changed', from: 'running', to: 'paused_for_user_action', reason: 'max_retries' },
  { seq: 6, ts, runId, type: 'user_action_resolved', action: 'continue', hint: 'look', by: 'socket' },
  { seq: 7, ts, runId, type: 'status_changed', from: 'paused_for_user_action', to: 'running' },
];

describe('run view state', () => {
  it('folds events once each, whatever order of repeats arrives', () => {
    let state = applySnapshot(initialViewState, snapshot);
    state = applyEvents(state, log.slice(0, 4)).state;
    // A reconnect replays from an older seq: the repeats are dropped.
    state = applyEvents(state, log.slice(2, 5)).state;
    expect(state.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(state.solved).toEqual([0]);
    expect(state.currentLevel).toBe(1);
    expect([state.promptTokens, state.completionTokens, state.costUsd]).toEqual([100, 20, 0.002]);
    expect(state.pending).toEqual(pause);
    expect(state.run?.status).toBe('paused_for_user_action');
  });

  it('closes the question when it is answered, and the snapshot reopens an unanswered one', () => {
    const answered = applyEvents(applySnapshot(initialViewState, snapshot), log).state;
    expect(answered.pending).toBeNull();
    expect(answered.run?.status).toBe('running');
    const reopened = applySnapshot(initialViewState, { ...snapshot, pendingAction: pause });
    expect(reopened.pending).toEqual(pause);
  });

  it('stops at a gap and says so, keeping what came before', () => {
    const start = applyEvents(applySnapshot(initialViewState, snapshot), log.slice(0, 2)).state;
    const { state, gap } = applyEvents(start, [log[4]!, log[5]!]);
    expect(gap).toBe(true);
    expect(state.lastSeq).toBe(2);
  });

  it("keeps the live text of the call being written through the replay of older events, and ends it with the call's own", () => {
    // A page joining mid-call: the snapshot (after seq 2) holds the text so far; the replay of seq 1-2
    // includes an older llm_call, which must not wipe it.
    let state = applySnapshot(initialViewState, {
      ...snapshot,
      lastSeq: 2,
      live: { level: 0, stage: 'plan', text: 'Reading the ' },
    });
    state = applyEvents(state, log.slice(0, 2)).state;
    expect(state.live?.text).toBe('Reading the ');
    state = applyLive(state, { type: 'thinking_delta', level: 0, stage: 'plan', text: 'readme.' });
    expect(state.live?.text).toBe('Reading the readme.');
    const own: RunEvent = { seq: 3, ts, runId, type: 'thinking', level: 0, text: 'Reading the readme.' };
    expect(applyEvents(state, [own]).state.live).toBeNull();
    // A delta of another call (the final attempt) starts afresh.
    expect(applyLive(state, { type: 'thinking_delta', level: 0, stage: 'final', text: 'Last' }).live?.text).toBe(
      'Last',
    );
  });
});

// So what depends on them (Verify, offered for a run that solved a level) shows without a reload.
describe('run_complete in the run view', () => {
  it('carries the levels solved into the summary a page opened at the start holds', () => {
    const opened = applySnapshot(initialViewState, snapshot);
    const { state } = applyEvents(opened, [
      { seq: 1, ts, runId, type: 'run_complete', status: 'completed', levelsSolved: 3 },
    ]);
    expect(state.run).toMatchObject({ status: 'completed', levelsSolved: 3 });
  });
});
