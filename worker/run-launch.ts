// Making a run and putting it in the queue, for every route that makes one (a run, a verification,
// a batch). The run is created queued; the queue starts it when a slot is free, at once if one is.
import type { ModelInfo } from '../schema/protocol.ts';
import type { RunConfig, RunSummary } from '../schema/run.ts';
import { levelSetOf } from '../schema/level-sets.ts';
import { ApiError } from './errors.ts';
import { newRunId } from './run-id.ts';
import { noteRunExists, sessionFor } from './run-lookup.ts';
import { queueFor } from './run-queue.ts';

/** The new run and its place in line (null: it has a slot). `model` is the proxy's entry for config.model, if it has one. */
export async function launchRun(
  env: Env,
  config: RunConfig,
  model: ModelInfo | null,
  batchLimit: number | null = null,
): Promise<{ run: RunSummary; queuePosition: number | null }> {
  const id = newRunId();
  // Known before its object exists, so no read of it can be refused as unknown (run-lookup.ts).
  await queueFor(env)
    .register(id)
    .catch((err: unknown) => {
      throw new ApiError(
        503,
        'queue_unavailable',
        `the run queue did not answer (${err instanceof Error ? err.message : String(err)}); nothing was made, try again`,
      );
    });
  // The level set is the worker's to say, at the moment the run is made (docs/providers.md#the-board, schema/level-sets.ts).
  const run = await sessionFor(env, id).create(id, { ...config, levelSet: levelSetOf(config.target, Date.now()) });
  if (!run) throw new ApiError(409, 'conflict', 'a run with this id already exists; try again');
  noteRunExists(id);
  // baseline and replay have no provider limit: only the global one.
  try {
    const batch = config.batchId && batchLimit !== null ? { id: config.batchId, limit: batchLimit } : null;
    const grant = await queueFor(env).admit(id, {
      provider: model?.provider ?? config.model,
      limit: model?.maxConcurrent ?? null,
      front: false,
      startsItself: false,
      batch,
    });
    return { run, queuePosition: grant.position };
  } catch (err) {
    // A run the queue never heard of would wait forever: it is stopped, and the caller told to retry.
    await sessionFor(env, id)
      .act({ action: 'stop' }, 'the queue')
      .catch(() => undefined);
    throw new ApiError(
      503,
      'queue_unavailable',
      `the run queue did not answer (${err instanceof Error ? err.message : String(err)}); run ${id} was stopped, try again`,
    );
  }
}
