// /api/batches: several models on the same levels, each run `repeats` times, grouped. Every config
// of a batch is checked before the first run is made, so a bad batch is refused whole.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { batchSchema, createBatchSchema, raiseBatchSchema } from '../../schema/board.ts';
import { actualSpend } from '../../schema/forecast.ts';
import type { Batch, BatchList } from '../../schema/board.ts';
import { describeIssues, issueList } from '../../schema/issues.ts';
import type { ModelInfo } from '../../schema/protocol.ts';
import type { RunConfig, RunStatus } from '../../schema/run.ts';
import { batchIdSchema, BASELINE_MODEL, FINAL_STATUSES, runConfigSchema } from '../../schema/run.ts';
import { readBatchForecast, recordBatchForecast } from '../batch-forecasts.ts';
import { listBatchRuns, listBatches } from '../db.ts';
import { ApiError, methodNotAllowed } from '../errors.ts';
import { fromD1 } from './analytics.ts';
import { checkModel, offeredModels } from '../proxy-models.ts';
import { newBatchId } from '../run-id.ts';
import { launchRun } from '../run-launch.ts';
import { takeCreations } from '../creation-limit.ts';
import { sessionFor } from '../run-lookup.ts';
import { queueFor } from '../run-queue.ts';
import { readJson } from '../validate.ts';
import { defaultWorld, recordedWorld } from '../../schema/worlds.ts';
import { CLIENT_HEADER, answeredBy } from '../../schema/answered-by.ts';

function unknownBatch(id: string): ApiError {
  return new ApiError(
    404,
    'batch_not_found',
    `no batch with id "${id.slice(0, 80)}"; list batches with GET /api/batches`,
  );
}

export const batchRoutes = new Hono<{ Bindings: Env }>()
  .post('/', async (c) => {
    const body = await readJson(c, createBatchSchema);
    const id = newBatchId();
    const configs: RunConfig[] = body.models.map((model) => {
      const parsed = runConfigSchema.safeParse({
        target: body.target,
        startLevel: body.startLevel,
        endLevel: body.endLevel,
        model,
        maxRetries: body.maxRetries,
        budget: body.budget,
        ...(body.finalAttempt !== undefined ? { finalAttempt: body.finalAttempt } : {}),
        onPause: body.onPause,
        batchId: id,
        // A benchmark's runs each play in a world of their own unless the batch says otherwise (schema/worlds.ts).
        world: body.world ?? defaultWorld(body.target, { batch: true }),
      });
      if (!parsed.success)
        throw new ApiError(
          400,
          'invalid_input',
          `the batch is invalid for ${model}: ${describeIssues(parsed.error)}`,
          issueList(parsed.error),
        );
      return parsed.data;
    });
    // One question to the proxy for the whole batch; every model must be offered and usable now.
    const listed: ModelInfo[] | undefined = body.models.some((m) => m !== BASELINE_MODEL)
      ? await offeredModels(c.env)
      : undefined;
    const infos = await Promise.all(configs.map((config) => checkModel(c.env, config, listed)));
    if (body.maxCostUsd !== undefined) refuseUnpriced(body.models, infos);
    // The whole batch is taken from the client's allowance, or none of it is made.
    await takeCreations(c, configs.length * body.repeats);
    // The cap exists before any run can start, so no run spends against a batch that has none yet.
    if (body.maxCostUsd !== undefined)
      await queueFor(c.env).openBatch(id, body.maxCostUsd, configs.length * body.repeats);
    // Repeat by repeat, so the queue starts the models side by side and none gets a head start.
    for (let repeat = 0; repeat < body.repeats; repeat++) {
      for (const [i, config] of configs.entries())
        await launchRun(c.env, config, infos[i] ?? null, body.maxRunning ?? null);
    }
    // The forecast it is made with, from the runs before it; a D1 failure leaves the batch without one.
    const forecast = await recordBatchForecast(c.env.DB, id, body, Date.now());
    return c.json({ ...(await batchOf(c, id)), forecast }, 201);
  })
  .get('/', async (c) => c.json((await fromD1(listBatches(c.env))) satisfies BatchList))
  .all('/', methodNotAllowed(['GET', 'POST']))
  .get('/:id', async (c) => {
    const id = c.req.param('id');
    if (!batchIdSchema.safeParse(id).success) throw unknownBatch(id);
    return c.json(await batchOf(c, id));
  })
  .all('/:id', methodNotAllowed(['GET']))
  // A new cost cap for the whole batch: its waiting runs may start again; a run paused at the cap is raised on its own.
  .post('/:id/raise', async (c) => {
    const id = c.req.param('id');
    if (!batchIdSchema.safeParse(id).success) throw unknownBatch(id);
    const body = await readJson(c, raiseBatchSchema);
    const raised = await queueFor(c.env).raiseBatch(id, body.maxCostUsd);
    // Lower than the cap in force, not above what was spent, or no cap at all: the body asks what cannot be.
    if (!raised.ok) throw new ApiError(400, 'invalid_input', raised.message);
    // Every run paused at the batch's cap goes on with it: one raise answers them all. A run paused for any
    // other reason refuses the raise and keeps waiting for its own answer.
    const runs = await fromD1(listBatchRuns(c.env, id));
    const by = answeredBy(c.req.header(CLIENT_HEADER));
    await Promise.all(
      runs
        // The index may lag a run's object; each object says for itself whether it waits at the cap.
        .filter((r) => !FINAL_STATUSES.includes(r.status))
        .map((r) =>
          sessionFor(c.env, r.id)
            .act({ action: 'raise', batchMaxCostUsd: body.maxCostUsd }, by)
            .catch(() => undefined),
        ),
    );
    return c.json(await batchOf(c, id));
  })
  .all('/:id/raise', methodNotAllowed(['POST']));

/** A cost cap is refused on a batch with a model whose price the proxy does not know: it could not be enforced. */
function refuseUnpriced(models: readonly string[], infos: readonly (ModelInfo | null)[]): void {
  const unpriced = models.filter((_, i) => {
    const info = infos[i];
    return info !== null && info !== undefined && !info.price;
  });
  if (unpriced.length === 0) return;
  throw new ApiError(
    400,
    'unpriced_model',
    `maxCostUsd: ${unpriced.join(', ')} ${unpriced.length === 1 ? 'has' : 'have'} no price, so a cost cap could not be enforced; set the price in the proxy's PROVIDERS (or OPENAI_PRICES), or drop maxCostUsd`,
    ['maxCostUsd: a model of the batch has no price'],
  );
}

/** A batch from the index, its runs' places in the queue, and its onPause from a run's own config. */
async function batchOf(c: Context<{ Bindings: Env }>, id: string): Promise<Batch> {
  const runs = await fromD1(listBatchRuns(c.env, id));
  const first = runs[0];
  if (!first) throw unknownBatch(id);
  const [queue, own, spend, forecast] = await Promise.all([
    queueFor(c.env).status(),
    sessionFor(c.env, first.id).summary(),
    queueFor(c.env).batchBudget(id),
    readBatchForecast(c.env.DB, id),
  ]);
  const places = new Map(queue.waiting.map((m) => [m.runId, m.position]));
  const byStatus: Partial<Record<RunStatus, number>> = {};
  for (const run of runs) byStatus[run.status] = (byStatus[run.status] ?? 0) + 1;
  const batch: Batch = {
    id,
    createdAt: first.createdAt,
    models: [...new Set(runs.map((r) => r.config.model))],
    config: {
      target: first.config.target,
      startLevel: first.config.startLevel,
      endLevel: first.config.endLevel,
      maxRetries: first.config.maxRetries,
      budget: first.config.budget,
      onPause: own?.config.onPause ?? 'wait',
      world: recordedWorld(own?.config ?? first.config),
    },
    spend,
    progress: { total: runs.length, byStatus, done: runs.filter((r) => FINAL_STATUSES.includes(r.status)).length },
    runs: runs.map((run) => ({ ...run, queuePosition: places.get(run.id) ?? null })),
    forecast,
    actual: actualSpend(runs, Date.now()),
  };
  return batchSchema.parse(batch);
}
