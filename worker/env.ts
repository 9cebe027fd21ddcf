// The worker's settings, validated once per request from the bindings wrangler provides.
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';

const workerSettingsSchema = z.object({
  PROXY_URL: z.url({ error: 'must be the SSH proxy base URL, e.g. http://127.0.0.1:8788' }),
  PROXY_SECRET: z.string().min(16, 'must be at least 16 characters; set it with `wrangler secret put PROXY_SECRET`'),
  PROXY_RETRY_MS: z.coerce.number().int().min(1, 'must be at least 1 (milliseconds)').default(1000),
  PROXY_MAX_FAILURES: z.coerce.number().int().min(1, 'must be at least 1').max(50, 'must be at most 50').default(5),
});

/** Typed settings from the environment. */
export type WorkerSettings = { proxyUrl: string; proxySecret: string; retryMs: number; maxFailures: number };

/** The settings, or an error saying which variable is wrong and how to fix it. */
export function readSettings(env: Env): { ok: true; settings: WorkerSettings } | { ok: false; message: string } {
  const parsed = workerSettingsSchema.safeParse(env);
  if (!parsed.success) return { ok: false, message: `worker configuration is invalid: ${describeIssues(parsed.error)}` };
  return {
    ok: true,
    settings: {
      proxyUrl: parsed.data.PROXY_URL.replace(/\/+$/, ''),
      proxySecret: parsed.data.PROXY_SECRET,
      retryMs: parsed.data.PROXY_RETRY_MS,
      maxFailures: parsed.data.PROXY_MAX_FAILURES,
    },
  };
}
