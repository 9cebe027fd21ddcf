// Making a run and putting it in the queue, for every route that makes one (a run, a verification,
// a batch, a fork). The run is created queued; the queue starts it when a slot is free, at once if one is.
import type { ModelInfo } from '../schema/protocol.ts';
import type { RunConfig, RunSummary } from '../schema/run.ts';
import { levelSetOf } from '../schema/level-sets.ts';
import { defaultWorld } from '../schema/worlds.ts';
import { ApiError } from './errors.ts';
import { newRunId } from './run-id.ts';
import { noteRunExists, sessionFor } from './run-lookup.ts';
import { queueFor } from './run-queue.ts';
import type { ForkStart } from './run-session/run-forks.ts';

/** The new run and its place in line (null: it has a slot). `model` is the proxy's entry for config.model, if it has one. */
export async function launchRun(
  env: Env,
  config: RunConfig,
  model: ModelInfo | null,
  batchLimit: number | null = null,
): Promise<{ run: RunSummary; queuePosition: number | null }> {
  // Known before its object exists, so no read of it can be refused as unknown (run-lookup.ts).
  const id = await registerNew(env);
  // The level set is the worker's to say, at the moment the run is made (docs/providers.md#the-board, schema/level-sets.ts);
  // so is the world: the one asked for (a batch names it) or a person's shared one, and a private world's key is the run's id.
  const world = config.world ?? defaultWorld(config.target, { batch: false });
  const { worldKey: _sent, ...rest } = config;
  const run = await sessionFor(env, id).create(id, {
    ...rest,
    levelSet: levelSetOf(config.target, Date.now()),
    world,
    ...(world === 'private' ? { worldKey: id } : {}),
  });
  if (!run) throw new ApiError(409, 'conflict', 'a run with this id already exists; try again');
  noteRunExists(id);
  return { run, queuePosition: await admitNew(env, id, config, model, batchLimit) };
}

/**
 * Makes a fork of `parentId` from the fork point its object gave (docs/forks.md) and puts it in the queue like
 * any new run; a fork left paused at its parent's pause waits for a person first. The parent lists it.
 */
export async function launchFork(
  env: Env,
  parentId: string,
  config: RunConfig,
  model: ModelInfo | null,
  start: ForkStart,
): Promise<RunSummary> {
  const id = await registerNew(env);
  // A fork plays on with its parent's level set: the steps it shares were played on it. It keeps its parent's
  // world and key too (the config is the parent's): the files the parent's steps made are there (docs/forks.md).
  const levelSet = config.levelSet ?? levelSetOf(config.target, Date.now());
  const run = await sessionFor(env, id).createFork(id, { ...config, levelSet }, start);
  if (!run) throw new ApiError(409, 'conflict', 'a run with this id already exists; try again');
  noteRunExists(id);
  // The parent's own list of its forks; D1's runs.parent_id says the same once the fork is mirrored.
  await sessionFor(env, parentId)
    .noteFork(id, start.origin.forkSeq)
    .catch((err: unknown) => console.error(`run ${parentId}: its fork ${id} was not listed: ${String(err)}`));
  // One left paused joins idle: the queue knows its provider (and that provider's limit) when it is continued.
  const paused = run.status === 'paused_for_user_action';
  if (paused || run.status === 'queued') await admitNew(env, id, config, model, null, paused);
  return run;
}

/** A new run id, known to the queue's registry before its object exists (run-lookup.ts). */
async function registerNew(env: Env): Promise<string> {
  const id = newRunId();
  await queueFor(env)
    .register(id)
    .catch((err: unknown) => {
      throw new ApiError(
        503,
        'queue_unavailable',
        `the run queue did not answer (${err instanceof Error ? err.message : String(err)}); nothing was made, try again`,
      );
    });
  return id;
}

/** Puts a run just made in the queue (`idle`: known with its provider, not waiting); its place in line (null: it has a slot). */
async function admitNew(
  env: Env,
  id: string,
  config: RunConfig,
  model: ModelInfo | null,
  batchLimit: number | null,
  idle = false,
): Promise<number | null> {
  // baseline and replay have no provider limit: only the global one.
  try {
    const batch = config.batchId && batchLimit !== null ? { id: config.batchId, limit: batchLimit } : null;
    const grant = await queueFor(env).admit(id, {
      provider: model?.provider ?? config.model,
      limit: model?.maxConcurrent ?? null,
      front: false,
      startsItself: false,
      batch,
      idle,
    });
    return grant.position;
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
