// The worker's settings, validated once per set of bindings (the runtime hands the same env object to
// every request of an isolate) and refused with a sentence that names the variable to fix.
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether a URL's hostname is this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

const flag = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

const maxRunningSchema = z.coerce
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000')
  .default(16);

const workerSettingsSchema = z
  .object({
    PROXY_URL: z.url({
      protocol: /^https?$/,
      error: 'must be the SSH proxy base URL, e.g. https://proxy.example.com or http://127.0.0.1:8788',
    }),
    PROXY_SECRET: z.string().min(16, 'must be at least 16 characters; set it with `wrangler secret put PROXY_SECRET`'),
    PROXY_RETRY_MS: z.coerce.number().int().min(1, 'must be at least 1 (milliseconds)').default(1000),
    PROXY_MAX_FAILURES: z.coerce.number().int().min(1, 'must be at least 1').max(50, 'must be at most 50').default(5),
    PROXY_TIMEOUT_MS: z.coerce.number().int().min(1_000, 'must be at least 1000 (milliseconds)').default(150_000),
    PROXY_ALLOW_HTTP: flag.default(false),
    MIRROR_RETRY_MS: z.coerce.number().int().min(1, 'must be at least 1 (milliseconds)').default(1000),
    MAX_RUNNING_RUNS: maxRunningSchema,
  })
  .superRefine((s, ctx) => {
    const url = URL.parse(s.PROXY_URL);
    if (url && url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !s.PROXY_ALLOW_HTTP) {
      ctx.addIssue({
        code: 'custom',
        path: ['PROXY_URL'],
        message:
          'a proxy on another machine must be reached over https:// (PROXY_SECRET and every command would cross the network in clear text); use https, or set PROXY_ALLOW_HTTP=true if you accept that',
      });
    }
  });

/** Typed settings from the environment. */
export type WorkerSettings = {
  proxyUrl: string;
  proxySecret: string;
  retryMs: number;
  maxFailures: number;
  /** The longest one proxy call may take, headers to end line. */
  proxyTimeoutMs: number;
  /** Set when the proxy is reached over plain http on another machine (PROXY_ALLOW_HTTP): health flags it. */
  insecureProxy: boolean;
  /** The first wait before the D1 outbox is tried again; it doubles up to a minute. */
  mirrorRetryMs: number;
};

export type SettingsResult = { ok: true; settings: WorkerSettings } | { ok: false; message: string };

/** `read` once per set of bindings: the runtime hands every request of an isolate the same env. */
function perEnv<T>(read: (env: Env) => T): (env: Env) => T {
  const cache = new WeakMap<object, T>();
  return (env) => {
    if (!cache.has(env)) cache.set(env, read(env));
    return cache.get(env)!;
  };
}

/** The settings, or an error saying which variable is wrong and how to fix it. */
export const readSettings: (env: Env) => SettingsResult = perEnv(parseSettings);

function parseSettings(env: Env): SettingsResult {
  const parsed = workerSettingsSchema.safeParse(env);
  if (!parsed.success)
    return { ok: false, message: `worker configuration is invalid: ${describeIssues(parsed.error)}` };
  const s = parsed.data;
  const proxyUrl = s.PROXY_URL.replace(/\/+$/, '');
  const url = new URL(proxyUrl);
  return {
    ok: true,
    settings: {
      proxyUrl,
      proxySecret: s.PROXY_SECRET,
      retryMs: s.PROXY_RETRY_MS,
      maxFailures: s.PROXY_MAX_FAILURES,
      proxyTimeoutMs: s.PROXY_TIMEOUT_MS,
      mirrorRetryMs: s.MIRROR_RETRY_MS,
      insecureProxy: url.protocol === 'http:' && !isLoopbackHost(url.hostname),
    },
  };
}

/**
 * How many runs may run at once; the rest wait in the queue. Read alone (the default when it is
 * unset or wrong), so a bad proxy setting never stops the line; a wrong value is reported by health
 * and pauses each run that tries to advance, like any other bad setting.
 */
export const maxRunningRuns: (env: Env) => number = perEnv((env) => {
  const parsed = maxRunningSchema.safeParse((env as { MAX_RUNNING_RUNS?: unknown }).MAX_RUNNING_RUNS);
  return parsed.success ? parsed.data : 16;
});

/** The D1 outbox's first retry wait; the default when the settings are invalid, so D1 is still retried. */
export function mirrorRetryMs(env: Env): number {
  const settings = readSettings(env);
  return settings.ok ? settings.settings.mirrorRetryMs : 1_000;
}

const accessSettingsSchema = z.object({
  // Empty is unset (local use); anything else must be long enough to be worth guessing against.
  API_TOKEN: z
    .union([
      z.literal(''),
      z.string().min(16, 'must be at least 16 characters when set; set it with `wrangler secret put API_TOKEN`'),
    ])
    .optional(),
});

export type AccessSettings = { ok: true; apiToken: string | null } | { ok: false; message: string };

/** API_TOKEN alone, read apart from the rest so that a bad proxy setting cannot lock the API open or shut. */
export const readAccessSettings: (env: Env) => AccessSettings = perEnv((env) => {
  const parsed = accessSettingsSchema.safeParse(env);
  return parsed.success
    ? { ok: true, apiToken: parsed.data.API_TOKEN || null }
    : { ok: false, message: `worker configuration is invalid: ${describeIssues(parsed.error)}` };
});

const limitsSchema = z.object({
  MAX_SOCKETS_PER_RUN: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(64),
  RUN_CREATE_PER_MINUTE: z.coerce
    .number()
    .min(0.01, 'must be more than 0')
    .max(100_000, 'must be at most 100000')
    .default(60),
  RUN_CREATE_BURST: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(100_000, 'must be at most 100000')
    .default(400),
  TERMINAL_IDLE_MS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1000, 'must be at least 1000')
    .max(86_400_000, 'must be at most 86400000')
    .default(600_000),
});

/** The bounds on what one client may open or make (answered with 429 past them), and how long a terminal idles. */
export type Limits = { maxSocketsPerRun: number; createPerMinute: number; createBurst: number; terminalIdleMs: number };

export type LimitsResult = { ok: true; limits: Limits } | { ok: false; message: string };

/** The limits, read apart from the proxy settings, or a sentence naming the variable to fix. */
export const readLimits: (env: Env) => LimitsResult = perEnv((env) => {
  const parsed = limitsSchema.safeParse(env);
  if (!parsed.success)
    return { ok: false, message: `worker configuration is invalid: ${describeIssues(parsed.error)}` };
  const s = parsed.data;
  return {
    ok: true,
    limits: {
      maxSocketsPerRun: s.MAX_SOCKETS_PER_RUN,
      createPerMinute: s.RUN_CREATE_PER_MINUTE,
      createBurst: s.RUN_CREATE_BURST,
      terminalIdleMs: s.TERMINAL_IDLE_MS,
    },
  };
});
