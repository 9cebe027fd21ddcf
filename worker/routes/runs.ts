// /api/runs: create a run, read it, act on it, and watch it over a WebSocket.
import { Hono } from 'hono';
import {
  createRunBodySchema,
  eventsQuerySchema,
  runActionSchema,
  runListQuerySchema,
  socketQuerySchema,
} from '../../schema/run.ts';
import { CLIENT_HEADER, answeredBy } from '../../schema/answered-by.ts';
import { listRuns } from '../db.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { errorText } from '../error-text.ts';
import { checkModel } from '../proxy-models.ts';
import { takeCreations } from '../creation-limit.ts';
import { launchRun } from '../run-launch.ts';
import { readJson, readQuery } from '../validate.ts';
import { existingSession, fromRun, unknownRun } from '../run-lookup.ts';
import { ACCESS_HEADER, accessHeader } from '../access/context.ts';

export const runRoutes = new Hono<{ Bindings: Env }>()
  .post('/', async (c) => {
    const config = await readJson(c, createRunBodySchema);
    if (config.replay)
      throw new ApiError(
        400,
        'invalid_input',
        'the request body is invalid: replay: a verification run is started with POST /api/runs/:id/verify on the run to verify',
        ['replay: set only by POST /api/runs/:id/verify'],
      );
    if (config.batchId)
      throw new ApiError(
        400,
        'invalid_input',
        "the request body is invalid: batchId: a batch's runs are made by POST /api/batches",
        ['batchId: set only by POST /api/batches'],
      );
    if (config.worldKey)
      throw new ApiError(
        400,
        'invalid_input',
        'the request body is invalid: worldKey: a private world is keyed to its own run; ask for one with "world": "private"',
        ['worldKey: set only by the worker'],
      );
    const model = await checkModel(c.env, config);
    await takeCreations(c, 1);
    const { run } = await launchRun(c.env, config, model);
    return c.json(run, 201);
  })
  .get('/', async (c) => {
    const query = readQuery(c, runListQuerySchema);
    const list = await listRuns(c.env, query).catch((err: unknown) => {
      // The list is D1's; a run's own routes answer from its Durable Object and keep working.
      throw new ApiError(
        503,
        'd1_unavailable',
        `the run index (D1) did not answer: ${errorText(err)}; each run is still reachable at /api/runs/:id`,
      );
    });
    return c.json(list);
  })
  .all('/', methodNotAllowed(['GET', 'POST']))
  .get('/:id', async (c) => c.json(await fromRun(c.env, c.req.param('id'), (run) => run.details())))
  .all('/:id', methodNotAllowed(['GET']))
  .get('/:id/events', async (c) => {
    const id = c.req.param('id');
    const query = readQuery(c, eventsQuerySchema);
    const page = await (await existingSession(c.env, id)).eventPage(query.since, query.limit);
    if (page === null) throw unknownRun(id);
    return c.body(page, 200, { 'content-type': 'application/json; charset=utf-8' });
  })
  .all('/:id/events', methodNotAllowed(['GET']))
  .get('/:id/diagnosis', async (c) => c.json(await fromRun(c.env, c.req.param('id'), (run) => run.diagnosis())))
  .all('/:id/diagnosis', methodNotAllowed(['GET']))
  .get('/:id/timeline', async (c) => c.json(await fromRun(c.env, c.req.param('id'), (run) => run.timeline())))
  .all('/:id/timeline', methodNotAllowed(['GET']))
  .post('/:id/actions', async (c) => {
    const id = c.req.param('id');
    const action = await readJson(c, runActionSchema);
    const result = await (await existingSession(c.env, id)).act(action, answeredBy(c.req.header(CLIENT_HEADER)));
    if (!result.ok)
      throw result.code === 'not_found'
        ? unknownRun(id)
        : result.code === 'invalid'
          ? new ApiError(400, 'invalid_input', result.message)
          : new ApiError(409, 'conflict', result.message);
    return c.json(result.run);
  })
  .all('/:id/actions', methodNotAllowed(['POST']))
  .get('/:id/ws', async (c) => {
    if (c.req.header('Upgrade')?.toLowerCase() !== 'websocket') {
      throw new ApiError(426, 'upgrade_required', 'this endpoint speaks WebSocket; connect with a WebSocket client');
    }
    // The object reads `since` itself; a bad one is refused here, before the upgrade, like any query.
    readQuery(c, socketQuerySchema);
    // An unknown id is a 404 before the upgrade, and reaches no object.
    const session = await existingSession(c.env, c.req.param('id'));
    // The object keeps the opener's access on the socket (a read-only one may watch, never act; a revoked
    // or expired link's socket is closed); set here, never the client's.
    const headers = new Headers(c.req.raw.headers);
    headers.set(ACCESS_HEADER, accessHeader(c.get('access')));
    return session.fetch(new Request(c.req.raw, { headers }));
  })
  .all('/:id/ws', methodNotAllowed(['GET']));
