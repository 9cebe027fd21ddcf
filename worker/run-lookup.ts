// Finding a run's Durable Object from an id in a URL, shared by the routes under /api/runs.
import { runIdSchema } from '../schema/run.ts';
import { ApiError } from './errors.ts';

export function sessionFor(env: Env, id: string) {
  return env.RUN_SESSION.get(env.RUN_SESSION.idFromName(id));
}

/** What `read` gets from the run's object; 404 for an id that names no run. */
export async function fromRun<T>(env: Env, id: string, read: (run: ReturnType<typeof sessionFor>) => Promise<T | null>): Promise<T> {
  const found = await read(sessionFor(env, checkedId(id)));
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
