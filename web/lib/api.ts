// Typed calls to the worker's REST API, validated with the shared schemas.
import { healthSchema } from '../../schema/api.ts';
import type { Health } from '../../schema/api.ts';

/** GET /api/health; a 503 still carries a valid report of which component is down. */
export async function fetchHealth(signal?: AbortSignal): Promise<Health> {
  const response = await fetch('/api/health', { signal, headers: { Accept: 'application/json' } });
  const parsed = healthSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`the health report was not understood (HTTP ${response.status})`);
  return parsed.data;
}
