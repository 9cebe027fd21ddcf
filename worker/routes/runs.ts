// /api/runs: create a run, read it, act on it, and watch it over a WebSocket.
import { Hono } from 'hono';
import { createRunBodySchema, runActionSchema, runIdSchema } from '../../schema/run.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { newRunId } from '../run-id.ts';
import { readJson } from '../validate.ts';

export const runRoutes = new Hono<{ Bindings: Env }>()
  .post('/', async (c) => {
    const config = await readJson(c, createRunBodySchema);
    const id = newRunId();
    const run = await sessionFor(c.env, id).create(id, config);
    if (!run) throw new ApiError(409, 'conflict', 'a run with this id already exists; try again');
    return c.json(run, 201);
  })
  .all('/', methodNotAllowed(['POST']))
  .get('/:id', async (c) => {
    const run = await sessionFor(c.env, checkedId(c.req.param('id'))).summary();
    if (!run) throw unknownRun(c.req.param('id'));
    return c.json(run);
  })
  .all('/:id', methodNotAllowed(['GET']))
  .post('/:id/actions', async (c) => {
    const id = checkedId(c.req.param('id'));
    const action = await readJson(c, runActionSchema);
    const result = await sessionFor(c.env, id).act(action, 'rest');
    if (!result.ok) throw result.code === 'not_found' ? unknownRun(id) : new ApiError(409, 'conflict', result.message);
    return c.json(result.run);
  })
  .all('/:id/actions', methodNotAllowed(['POST']))
  .get('/:id/ws', async (c) => {
    const id = checkedId(c.req.param('id'));
    if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') {
      throw new ApiError(426, 'upgrade_required', 'this endpoint speaks WebSocket; connect with a WebSocket client');
    }
    return sessionFor(c.env, id).fetch(c.req.raw);
  })
  .all('/:id/ws', methodNotAllowed(['GET']));

function sessionFor(env: Env, id: string) {
  return env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
}

/** A syntactically valid run id; anything else cannot name a run, so it is a 404. */
function checkedId(id: string): string {
  if (!runIdSchema.safeParse(id).success) throw unknownRun(id);
  return id;
}

function unknownRun(id: string): ApiError {
  return new ApiError(404, 'run_not_found', `no run with id "${id.slice(0, 80)}"; list runs with GET /api/runs`);
}
