// Finding a run's Durable Object from an id in a URL, shared by the routes under /api/runs. An id
// this worker never made is a 404 before any object is reached: reaching one creates it, and its
// storage (about 45 KB in local workerd) would stay for good.
import { runIdSchema } from '../schema/run.ts';
import { findRun } from './db.ts';
import { ApiError } from './errors.ts';
import { queueFor } from './run-queue.ts';

export function sessionFor(env: Env, id: string) {
  return env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
}

/** Ids known to exist, per isolate: a run once made is never unmade, so a yes is kept (up to a bound). */
const known = new Set<string>();
const KNOWN_MAX = 10_000;

/**
 * Whether a run with this id was made: the queue's registry, or for runs made before it, D1. When
 * neither can answer (both down), the object is asked, which is right for a real run.
 */
export async function runExists(env: Env, id: string): Promise<boolean> {
  if (known.has(id)) return true;
  const found = await queueFor(env)
    .knows(id)
    .then(async (registered) => registered || (await findRun(env, id)) !== undefined)
    .catch(() => true);
  if (found) {
    if (known.size >= KNOWN_MAX) known.clear();
    known.add(id);
  }
  return found;
}

/** The object of a run that exists; 404 for an id that names none, before any object is reached. */
export async function existingSession(env: Env, id: string): Promise<ReturnType<typeof sessionFor>> {
  if (!(await runExists(env, checkedId(id)))) throw unknownRun(id);
  return sessionFor(env, id);
}

/** What `read` gets from the run's object; 404 for an id that names no run. */
export async function fromRun<T>(env: Env, id: string, read: (run: ReturnType<typeof sessionFor>) => Promise<T | null>): Promise<T> {
  const found = await read(await existingSession(env, id));
  if (found === null) throw unknownRun(id);
  return found;
}

/** A syntactically valid run id; anything else cannot name a run, so it is a 404. */
export function checkedId(id: string): string {
  if (!runIdSchema.safeParse(id).success) throw unknownRun(id);
  return id;
}

export function unknownRun(id: string): ApiError {
  return new ApiError(404, 'run_not_found', `no run with id "${id.slice(0, 80)}"; list runs with GET /api/runs`);
}
