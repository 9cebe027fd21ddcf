// A run's object counts what Cloudflare bills for it (issue 34, worker/object-usage.ts): each statement's rows as
// its cursor counted them, its requests and socket messages apart, D1's rows for its mirror, its alarm writes, and
// keeps the counts across a restart (they are saved with each mirror).
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { HostingUsage } from '../../schema/hosting.ts';
import type { RunSummary } from '../../schema/run.ts';
import { migrate } from '../../worker/object-sql/migrate.ts';
import { runSessionMigrations } from '../../worker/object-sql/run-session-migrations.ts';
import { runSessionSchema } from '../../worker/object-sql/schema.ts';
import { ObjectUsage } from '../../worker/object-usage.ts';
import type { RunSession } from '../../worker/run-session/run-session.ts';
import { call, createRun, eventsOf, waitForStatus } from './http.ts';
import { connect } from './socket-client.ts';

const stubOf = (id: string) => env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
const hostingOf = async (id: string): Promise<HostingUsage> => {
  const run = (await (await call(`/api/runs/${id}`)).json()) as RunSummary;
  if (!run.hosting) throw new Error('GET /api/runs/:id has no hosting counts');
  return run.hosting;
};

describe('hosting usage', () => {
  it("counts exactly the rows its statements' cursors wrote and read, and saves and reads them back", async () => {
    const counted = await runInDurableObject(stubOf('hosting-usage-rows'), (_i: RunSession, state) => {
      migrate(state.storage, runSessionMigrations, 0, { fresh: runSessionSchema });
      const usage = new ObjectUsage();
      const sql = usage.counted(state.storage.sql);
      usage.attach(sql);
      // inbox is a rowid table with no index: a row is one row written.
      sql.exec("INSERT INTO inbox (seq, text) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      sql.exec('DELETE FROM inbox WHERE seq = 3');
      const read = sql.exec('SELECT seq FROM inbox').toArray().length;
      const before = usage.view();
      usage.save();
      const again = new ObjectUsage();
      again.attach(again.counted(state.storage.sql));
      return { read, before, saved: again.view() };
    });
    expect(counted.read).toBe(2);
    // 3 inserted and 1 deleted; the reads include the 2 the SELECT returned (and what attach() read of usage).
    expect(counted.before.rowsWritten).toBe(4);
    expect(counted.before.rowsRead).toBeGreaterThanOrEqual(2);
    // A new instance starts from the saved row, the save's own row counted in it.
    expect(counted.saved.rowsWritten).toBe(counted.before.rowsWritten + 1);
    // …and its read of that row.
    expect(counted.saved.rowsRead).toBe(counted.before.rowsRead + 1);
    expect(counted.saved.storedBytes).toBeGreaterThan(0);
  });

  it('counts a played run: its rows, D1 rows, requests and socket messages apart, and keeps them across a restart', async () => {
    const run = await createRun({ model: 'script-pause' });
    await waitForStatus(run.id, 'paused_for_user_action');
    const events = await eventsOf(run.id);
    const played = await hostingOf(run.id);
    // A read writes nothing.
    expect((await hostingOf(run.id)).rowsWritten).toBe(played.rowsWritten);
    // Every stored event is a row of its own; the run row, the loop and the level figures come on top.
    expect(played.rowsWritten).toBeGreaterThan(events.length);
    // D1 took the run row, the command, the node and the model call, one row each at least.
    expect(played.d1RowsWritten).toBeGreaterThanOrEqual(4);
    expect(played.alarmWrites).toBeGreaterThan(0);
    // Requests so far: the create, the queue's start, an alarm at least, and the reads above.
    expect(played.requests).toBeGreaterThanOrEqual(5);
    expect(played.socketMessages).toBe(0);

    const socket = await connect(`/api/runs/${run.id}/ws?since=0`);
    for (let i = 0; i < 3; i++) socket.send({ type: 'ping' });
    for (let seen = 0; seen < 3; ) if ((await socket.next()).type === 'pong') seen++;
    socket.ws.close();
    const watched = await hostingOf(run.id);
    expect(watched.socketMessages).toBe(3);
    // The socket's upgrade and two reads; the messages are not requests (Cloudflare bills 20 of them as one).
    expect(watched.requests).toBe(played.requests + 3);

    // A restart keeps what was saved as the alarm that paused the run ended: every row written by then.
    await runInDurableObject(stubOf(run.id), (_i: RunSession, state) => state.abort('restart for the test')).catch(
      () => undefined,
    );
    const restarted = await hostingOf(run.id);
    expect(restarted.rowsWritten).toBe(played.rowsWritten);
    expect(restarted.d1RowsWritten).toBe(played.d1RowsWritten);
    expect(restarted.alarmWrites).toBe(played.alarmWrites);
  });
});
