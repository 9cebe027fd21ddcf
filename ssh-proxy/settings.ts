// The proxy's settings from the environment, validated at start-up with messages that say what to set.
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';

const portSchema = z.coerce.number().int().min(1, 'must be a port number 1-65535').max(65535, 'must be a port number 1-65535');

const proxyEnvSchema = z.object({
  PROXY_HOST: z.string().min(1).default('127.0.0.1'),
  PROXY_PORT: portSchema.default(8788),
  PROXY_SECRET: z.string().min(16, 'must be at least 16 characters (the worker sends it as a bearer token)'),
  PRACTICE_HOST: z.string().min(1).default('127.0.0.1'),
  PRACTICE_PORT: portSchema.default(2220),
});

/** What the proxy needs to run. */
export type ProxySettings = {
  host: string;
  port: number;
  secret: string;
  practice: { host: string; port: number };
};

/** Settings from `env`, or an Error whose message names each bad variable. */
export function readProxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const parsed = proxyEnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`ssh-proxy configuration is invalid: ${describeIssues(parsed.error)}`);
  const e = parsed.data;
  return { host: e.PROXY_HOST, port: e.PROXY_PORT, secret: e.PROXY_SECRET, practice: { host: e.PRACTICE_HOST, port: e.PRACTICE_PORT } };
}
