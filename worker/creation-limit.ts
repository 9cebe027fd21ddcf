// Run creations per client are bounded (RUN_CREATE_PER_MINUTE, up to RUN_CREATE_BURST at once),
// counted in the RunQueue object, so POST /api/runs, a batch and a verification all draw on one
// allowance. Past it the answer is 429 with Retry-After and a sentence saying what to do.
import type { Context } from 'hono';
import { clientKey } from './auth.ts';
import { readLimits } from './env.ts';
import { ApiError } from './errors.ts';
import { queueFor } from './run-queue.ts';

/** Takes `count` creations from the caller's allowance, or throws 429 (503 when misconfigured). */
export async function takeCreations(c: Context<{ Bindings: Env }>, count: number): Promise<void> {
  const limits = readLimits(c.env);
  if (!limits.ok) throw new ApiError(503, 'misconfigured', limits.message);
  const { createPerMinute: perMinute, createBurst: burst } = limits.limits;
  const grant = await queueFor(c.env).takeCreations(clientKey(c.req.raw, c.env, c.get('access')), count, {
    perMinute,
    burst,
  });
  if (grant.ok) return;
  const rate = `${perMinute} runs a minute (RUN_CREATE_PER_MINUTE), at most ${burst} at once (RUN_CREATE_BURST)`;
  if (grant.never)
    throw new ApiError(
      429,
      'too_many_runs',
      `${count} runs at once is more than a client may create: ${rate}; split the batch, or raise RUN_CREATE_BURST`,
    );
  c.header('Retry-After', String(grant.retryAfterS));
  throw new ApiError(
    429,
    'too_many_runs',
    `too many runs created: a client may create ${rate}; try again in ${grant.retryAfterS} s`,
  );
}
