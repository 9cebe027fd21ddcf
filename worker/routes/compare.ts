// GET /api/compare?a=<id>&b=<id>: two runs side by side, level by level, and the first point where they
// differ (schema/run-compare.ts), read from each run's object. The logs are redacted first, as an archive's
// are, so a level's password in a command reads the same placeholder in both runs.
import { Hono } from 'hono';
import { compareQuerySchema, compareRuns } from '../../schema/run-compare.ts';
import type { ComparedRun, RunComparison } from '../../schema/run-compare.ts';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import { shownEvents } from '../artifacts/redact.ts';
import { methodNotAllowed } from '../errors.ts';
import { existingSession, unknownRun } from '../run-lookup.ts';
import { readQuery } from '../validate.ts';

/** The run's summary and its redacted log; 404 naming the id when no run has it. */
async function comparedRun(env: Env, id: string): Promise<ComparedRun> {
  const record = await (await existingSession(env, id)).fullRecord();
  if (!record) throw unknownRun(id);
  return { run: record.run as RunSummary, events: shownEvents(record.events as RunEvent[], false).events };
}

export const compareRoutes = new Hono<{ Bindings: Env }>()
  .get('/', async (c) => {
    const { a, b } = readQuery(c, compareQuerySchema);
    const [runA, runB] = await Promise.all([comparedRun(c.env, a), a === b ? null : comparedRun(c.env, b)]);
    return c.json(compareRuns(runA, runB ?? runA) satisfies RunComparison);
  })
  .all('/', methodNotAllowed(['GET']));
