// How a Durable Object stores a step, in its own SQLite: checkpoint patches applied to the stored
// checkpoint (appended list items kept as rows, a patch for another step refused with nothing
// changed), and an outbox that drains a step's rows together with rows queued one by one by objects
// from before steps were queued whole.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { applyCheckpointPatch, diffCheckpoint } from '../../schema/checkpoint-patch.ts';
import type { Checkpoint } from '../../schema/protocol.ts';
import { CheckpointStore } from '../../worker/run-session/checkpoint-store.ts';
import { D1Outbox } from '../../worker/run-session/d1-outbox.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import type { MirrorRows } from '../../worker/d1-mirror.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';

const at = (step: number, state: Record<string, unknown>): Checkpoint => ({
  version: 1,
  step,
  next: 'plan',
  state,
  createdAt: '2026-11-24T00:00:00.000Z',
});

describe('CheckpointStore', () => {
  it('applies patches as the proxy made them, keeps appended items as rows, and refuses a patch for another step', async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('step-storage-checkpoint'));
    await runInDurableObject(stub, (_instance: RunSession, state) => {
      const sql = state.storage.sql;
      migrate(state.storage, runSessionMigrations, 0); // as create() has it done before the parts are made
      sql.exec('INSERT OR IGNORE INTO loop (singleton) VALUES (1)');
      const store = new CheckpointStore(sql);
      const first = at(1, { history: [{ turn: 'a' }], lessons: [], level: 0, gone: true });
      const history = first.state.history as unknown[];
      const second = at(2, { ...first.state, history: [...history, { turn: 'b' }], level: 1 });
      delete second.state.gone;
      const third = at(3, {
        ...second.state,
        history: [...(second.state.history as unknown[]), { turn: 'c' }, { turn: 'd' }],
        lessons: [{ text: 'x' }],
      });
      const fourth = at(4, { ...third.state, history: [] });
      store.write(first);
      for (const [before, after] of [
        [first, second],
        [second, third],
        [third, fourth],
      ] as const) {
        store.patch(diffCheckpoint(before, after));
        expect(store.read()).toEqual(applyCheckpointPatch(before, diffCheckpoint(before, after)));
      }
      expect(store.read()?.state).toEqual(fourth.state);
      // The history was moved into rows and, once set to [] again, its rows went.
      expect(sql.exec<{ n: number }>("SELECT count(*) AS n FROM checkpoint_items WHERE key = 'history'").one().n).toBe(
        0,
      );
      // A patch made against step 3 while step 4 is stored: refused before anything is written.
      expect(() =>
        store.patch(
          diffCheckpoint(
            third,
            at(5, { ...third.state, history: [...(third.state.history as unknown[]), { turn: 'e' }] }),
          ),
        ),
      ).toThrow(/for step 3 cannot apply to step 4/);
      expect(store.read()).toEqual(fourth);
    });
  });
});

describe('D1Outbox', () => {
  it("sends a step's rows as one entry, together with rows an older object queued one by one", async () => {
    const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('step-storage-outbox'));
    await runInDurableObject(stub, async (_instance: RunSession, state) => {
      const sql = state.storage.sql;
      migrate(state.storage, runSessionMigrations, 0);
      const outbox = new D1Outbox(sql);
      const command = {
        runId: 'run_x',
        seq: 1,
        level: 0,
        command: 'ls',
        exitCode: 0,
        durationMs: 3,
        outputBytes: 10,
        truncated: false,
        createdAt: 1,
      };
      // As an object from before steps were queued whole left it.
      sql.exec("INSERT INTO outbox (kind, row) VALUES ('commands', ?)", JSON.stringify(command));
      const step: MirrorRows = {
        llmCalls: [],
        executions: [
          { runId: 'run_x', seq: 2, node: 'plan', level: 0, startedAt: 1, durationMs: 1, status: 'ok', error: null },
        ],
        commands: [{ ...command, seq: 3 }],
      };
      outbox.add(step);
      outbox.add({ llmCalls: [], executions: [], commands: [] });
      expect(outbox.pending()).toBe(2);
      const sent: MirrorRows[] = [];
      const result = await outbox.flush(async (rows) => void sent.push(rows), 10, Date.now);
      expect(result).toEqual({ ok: true, sent: 2 });
      expect(sent).toEqual([
        { llmCalls: [], executions: step.executions, commands: [command, { ...command, seq: 3 }] },
      ]);
      expect(outbox.pending()).toBe(0);
    });
  });
});
