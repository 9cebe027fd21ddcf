// Options every command shares, each also an environment variable: where the stack is, its token,
// and colour. Numbers are parsed here so a bad value is a one-line usage error naming the flag.
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { ApiClient } from './api-client.ts';
import { colorsFor } from './render/colors.ts';
import type { Colors } from './render/colors.ts';

export type GlobalOptions = { url: string; token?: string; color: boolean };

export const DEFAULT_URL = 'http://127.0.0.1:8787';

const urlEnvSchema = z.object({
  BANDIT_RUNNER_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:8787' }),
  WORKER_PORT: z.coerce.number().int().min(1).max(65535, 'must be a port number 1-65535'),
});

/**
 * The stack's URL when --url is not given: BANDIT_RUNNER_URL, else the loopback worker on the
 * WORKER_PORT that `npm start` reads (so one exported port serves both), else DEFAULT_URL.
 * Returns a message naming the variable when one is set but malformed.
 */
export function urlFromEnv(env: NodeJS.ProcessEnv): { ok: true; url: string } | { ok: false; message: string } {
  const url = env.BANDIT_RUNNER_URL?.trim();
  if (url) {
    const parsed = urlEnvSchema.shape.BANDIT_RUNNER_URL.safeParse(url);
    return parsed.success
      ? { ok: true, url: parsed.data }
      : { ok: false, message: `BANDIT_RUNNER_URL ${parsed.error.issues[0]?.message ?? 'is not a URL'}` };
  }
  const port = env.WORKER_PORT?.trim();
  if (!port) return { ok: true, url: DEFAULT_URL };
  const parsed = urlEnvSchema.shape.WORKER_PORT.safeParse(port);
  return parsed.success
    ? { ok: true, url: `http://127.0.0.1:${parsed.data}` }
    : { ok: false, message: `WORKER_PORT must be a port number 1-65535 (got "${port}"); or pass --url` };
}

export function clientFrom(g: GlobalOptions): ApiClient {
  return new ApiClient({ url: g.url, token: g.token ?? null });
}

export function colorsOf(g: GlobalOptions, stream: NodeJS.WriteStream): Colors {
  return colorsFor(stream, { color: g.color });
}

/** A whole number ≥ 1 for `flag`, or commander's usage error naming it. */
export function intOption(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new InvalidArgumentError(`${flag} must be a whole number of 1 or more`);
    return Number(value);
  };
}
