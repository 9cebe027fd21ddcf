// Settings for `npm start`, from the environment, with messages that name the variable to change.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';

const port = z.coerce
  .number()
  .int()
  .min(1, 'must be a port number 1-65535')
  .max(65535, 'must be a port number 1-65535');

const stackEnvSchema = z.object({
  WORKER_PORT: port.default(8787),
  PROXY_PORT: port.default(8788),
  PRACTICE_PORT: port.default(2220),
  STATE_DIR: z.string().min(1).default('.state'),
  // Above 1: that many proxies behind HAProxy on PROXY_PORT (scripts/balancer.ts).
  PROXIES: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(16, 'must be at most 16 (each proxy is a Node process; this machine has few cores)')
    .default(1),
  // Unset (or empty): the worker runs with no DevTools inspector at all, so no page can reach one.
  WORKER_INSPECTOR_PORT: z.union([z.literal(''), port]).optional(),
  PROXY_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  API_TOKEN: z
    .union([
      z.literal(''),
      z.string().min(16, 'must be at least 16 characters when set (or unset it to serve only this machine)'),
    ])
    .optional(),
});

/** Everything `npm start` needs to know. */
export type StackSettings = {
  workerPort: number;
  proxyPort: number;
  practicePort: number;
  /** Proxies to run: 1 listens on proxyPort itself; more sit behind HAProxy listening there. */
  proxies: number;
  stateDir: string;
  /** The worker's DevTools inspector port, or null for none (the default). */
  inspectorPort: number | null;
  proxySecret: string;
  /** The API token the worker asks for, or null to serve this machine only. */
  apiToken: string | null;
};

/** Settings from `env`, or an Error naming each bad variable. */
export function readStackSettings(env: NodeJS.ProcessEnv, root: string): StackSettings {
  const parsed = stackEnvSchema.safeParse(env);
  if (!parsed.success) throw new Error(`configuration is invalid: ${describeIssues(parsed.error)}`);
  const e = parsed.data;
  return {
    workerPort: e.WORKER_PORT,
    proxyPort: e.PROXY_PORT,
    practicePort: e.PRACTICE_PORT,
    proxies: e.PROXIES,
    stateDir: resolve(root, e.STATE_DIR),
    inspectorPort: e.WORKER_INSPECTOR_PORT || null,
    // A fresh secret each start: only this worker may drive this proxy.
    proxySecret: e.PROXY_SECRET ?? randomBytes(24).toString('base64url'),
    apiToken: e.API_TOKEN || null,
  };
}

/** Throws a clear message for the first port that is already taken. */
export async function assertPortsFree(settings: StackSettings): Promise<void> {
  const ports: [string, number][] = [
    ['WORKER_PORT', settings.workerPort],
    ['PROXY_PORT', settings.proxyPort],
    ['PRACTICE_PORT', settings.practicePort],
    ...(settings.inspectorPort ? [['WORKER_INSPECTOR_PORT', settings.inspectorPort] as [string, number]] : []),
  ];
  const seen = new Map<number, string>();
  for (const [name, value] of ports) {
    const other = seen.get(value);
    if (other) throw new Error(`${name} and ${other} are both ${value}; give each its own port`);
    seen.set(value, name);
    if (!(await isFree(value)))
      throw new Error(
        `port ${value} (${name}) is in use; stop what holds it or set ${name} to a free port, e.g. ${name}=${value + 10} npm start`,
      );
  }
}

function isFree(portNumber: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(portNumber, '127.0.0.1', () => probe.close(() => done(true)));
  });
}
