// /api/runs/:id/fork and /forks: a new run that starts from one of a run's steps, sharing the run's events up
// to it (docs/forks.md), and the list of a run's forks for its page.
import { Hono } from 'hono';
import type { ForkBody } from '../../schema/fork.ts';
import { forkBodySchema } from '../../schema/fork.ts';
import type { RunConfig } from '../../schema/run.ts';
import { BASELINE_MODEL, runConfigSchema } from '../../schema/run.ts';
import { CLIENT_HEADER, answeredBy } from '../../schema/answered-by.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { checkModel } from '../proxy-models.ts';
import { takeCreations } from '../creation-limit.ts';
import { launchFork } from '../run-launch.ts';
import type { ForkPointResult } from '../run-session/run-forks.ts';
import { existingSession, fromRun, unknownRun } from '../run-lookup.ts';
import { parseOr400, readJson } from '../validate.ts';

/**
 * The fork's config: the parent's with the model and caps asked for. It belongs to no batch, and keeps the
 * baseline's pace only while its model is the baseline.
 */
export function forkConfig(parent: RunConfig, body: ForkBody): RunConfig {
  const { batchId: _batchId, paceMs, caps, ...rest } = parent;
  const model = body.model ?? parent.model;
  const next = {
    ...rest,
    model,
    ...(paceMs && model === BASELINE_MODEL ? { paceMs } : {}),
    ...((body.caps ?? caps) ? { caps: body.caps ?? caps } : {}),
  };
  return parseOr400(runConfigSchema, next, "the fork's config (the parent's, with the changes asked for)");
}

export const forkRoutes = new Hono<{ Bindings: Env }>()
  .post('/:id/fork', async (c) => {
    const parentId = c.req.param('id');
    const body = await readJson(c, forkBodySchema);
    // The RPC stub's type loses the union's narrowing; the object returns exactly this.
    const point = (await (await existingSession(c.env, parentId)).forkPoint(body.seq)) as ForkPointResult | null;
    if (point === null) throw unknownRun(parentId);
    if (!point.ok)
      throw point.code === 'invalid'
        ? new ApiError(400, 'invalid_input', point.message)
        : new ApiError(409, 'not_forkable', point.message);
    const config = forkConfig(point.config, body);
    const model = await checkModel(c.env, config);
    await takeCreations(c, 1);
    const { seq, ...changes } = body;
    const run = await launchFork(c.env, parentId, config, model, {
      checkpoint: point.checkpoint,
      pending: point.pending,
      origin: { parentId, forkSeq: seq },
      changes,
      by: answeredBy(c.req.header(CLIENT_HEADER)),
    });
    return c.json(run, 201);
  })
  .all('/:id/fork', methodNotAllowed(['POST']))
  .get('/:id/forks', async (c) => c.json({ forks: await fromRun(c.env, c.req.param('id'), (run) => run.forks()) }))
  .all('/:id/forks', methodNotAllowed(['GET']));
