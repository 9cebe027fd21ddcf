// The run page's summary at a run's end, folded from run_complete: its status and its levels solved,
// so what depends on them (Verify, offered for a run that solved a level) shows without a reload.
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../schema/protocol.ts';
import { runConfigSchema } from '../../schema/run.ts';
import { applyEvents, applySnapshot, initialViewState } from '../../schema/run-view-state.ts';

const runId = 'run_00000000000000000000test';
const ts = '2026-11-21T12:00:00.000Z';
const snapshot: Snapshot = {
  run: {
    id: runId,
    config: runConfigSchema.parse({ maxRetries: 1 }),
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

describe('run_complete in the run view', () => {
  it('carries the levels solved into the summary a page opened at the start holds', () => {
    const opened = applySnapshot(initialViewState, snapshot);
    const { state } = applyEvents(opened, [
      { seq: 1, ts, runId, type: 'run_complete', status: 'completed', levelsSolved: 3 },
    ]);
    expect(state.run).toMatchObject({ status: 'completed', levelsSolved: 3 });
  });
});
