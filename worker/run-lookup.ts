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
/** How long the queue's registry may take before D1 is asked instead. */
const QUEUE_WAIT_MS = 2_000;

/** Notes that a run with this id exists (run-launch.ts, once its object is made), so no lookup is needed for it. */
export function noteRunExists(id: string): void {
  if (known.size >= KNOWN_MAX) known.clear();
  known.add(id);
}

/** `promise`, or a rejection after `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether a run with this id was made: the queue's registry (within 2 s), then D1 for runs made
 * before the registry or when the queue fails. A run found only in D1 is registered. When neither
 * answers, the object is asked (right for a real run; an unknown id then costs an empty object),
 * and that guess is not kept.
 */
export async function runExists(env: Env, id: string): Promise<boolean> {
  if (known.has(id)) return true;
  const registered = await within(queueFor(env).knows(id), QUEUE_WAIT_MS, 'the run queue').catch(() => null);
  if (registered) {
    noteRunExists(id);
    return true;
  }
  const inDatabase = await findRun(env, id).then(
    (row) => row !== undefined,
    () => null,
  );
  if (inDatabase === null) return true;
  if (inDatabase) {
    noteRunExists(id);
    // Registered now, so the next isolate finds it in the queue; a failure only means D1 is asked again.
    if (registered === false)
      await within(queueFor(env).register(id), QUEUE_WAIT_MS, 'the run queue').catch(() => undefined);
  }
  return inDatabase;
}

/** The object of a run that exists; 404 for an id that names none, before any object is reached. */
export async function existingSession(env: Env, id: string): Promise<ReturnType<typeof sessionFor>> {
  if (!(await runExists(env, checkedId(id)))) throw unknownRun(id);
  return sessionFor(env, id);
}

/** What `read` gets from the run's object; 404 for an id that names no run. */
export async function fromRun<T>(
  env: Env,
  id: string,
  read: (run: ReturnType<typeof sessionFor>) => Promise<T | null>,
): Promise<T> {
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
