// Each step's checkpoint, kept for forks (worker/run-session/checkpoint-history.ts), in a real object's SQLite:
// a step's checkpoint is the nearest whole one with the patches after it applied, a pause's row is the checkpoint
// it paused at, and a seq with no row is refused with the nearest kept seqs on either side.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { diffCheckpoint } from '../../schema/checkpoint-patch.ts';
import type { Checkpoint } from '../../schema/protocol.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import { CheckpointHistory } from '../../worker/run-session/checkpoint-history.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';

const at = (step: number, state: Record<string, unknown>): Checkpoint => ({
  version: 1,
  step,
  next: 'plan',
  state,
  createdAt: '2026-11-25T00:00:00.000Z',
});

describe('CheckpointHistory', () => {
  it('gives back the checkpoint at each kept step, across calls, patches and a pause', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('checkpoint-history-steps'));
    await runInDurableObject(stub, (_instance: RunSession, state) => {
      migrate(state.storage, runSessionMigrations, 0);
      const history = new CheckpointHistory(state.storage.sql);
      const one = at(1, { history: [{ turn: 'a' }], level: 0 });
      const two = at(2, { ...one.state, history: [...(one.state.history as unknown[]), { turn: 'b' }] });
      const three = at(3, { ...two.state, history: [...(two.state.history as unknown[]), { turn: 'c' }], level: 1 });
      // A new call starts with a whole checkpoint again.
      const four = at(4, { history: [], level: 1 });
      history.add(5, { checkpoint: one });
      history.add(9, { checkpointPatch: diffCheckpoint(one, two) });
      history.add(12, { checkpointPatch: diffCheckpoint(two, three) });
      history.add(13, null); // the pause: the checkpoint it paused at
      history.add(20, { checkpoint: four });
      expect(history.at(5)).toEqual(one);
      expect(history.at(9)).toEqual(two);
      expect(history.at(12)).toEqual(three);
      expect(history.at(13)).toEqual(three);
      expect(history.at(20)).toEqual(four);
      expect(history.at(4)).toBeNull();
      expect([5, 9, 12, 13, 20].map((s) => history.isKept(s))).toEqual([true, true, true, true, true]);
      expect([4, 6, 14, 21].map((s) => history.isKept(s))).toEqual([false, false, false, false]);
      expect(history.around(10)).toEqual({ before: 9, after: 12 });
      expect(history.around(3)).toEqual({ before: null, after: 5 });
      expect(history.around(30)).toEqual({ before: 20, after: null });
    });
  });
});
