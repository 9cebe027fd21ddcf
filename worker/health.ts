// The checks behind GET /api/health: each component answers ok or says in words what is wrong.
import type { ComponentHealth, Health } from '../schema/api.ts';
import { proxyHealthSchema } from '../schema/protocol.ts';
import type { ProxyHealth } from '../schema/protocol.ts';
import { describeIssues } from '../schema/issues.ts';
import { countRuns } from './db.ts';
import { errorText } from './error-text.ts';
import { readSettings } from './env.ts';
import type { WorkerSettings } from './env.ts';

/** How long any one check may take before it counts as down. */
const CHECK_TIMEOUT_MS = 2_000;

/** Runs every check in parallel; never throws. */
export async function checkHealth(env: Env): Promise<Health> {
  const settings = readSettings(env);
  const worker: ComponentHealth = settings.ok
    ? { ok: true, reason: 'configuration valid', ...insecure(settings.settings) }
    : { ok: false, reason: settings.message };
  const [d1, durableObject, proxy] = await Promise.all([
    guard(checkD1(env)),
    guard(checkDurableObject(env)),
    settings.ok
      ? checkProxy(settings.settings.proxyUrl)
      : Promise.resolve(unknownProxy('the worker configuration is invalid')),
  ]);
  const components = { worker, d1, durable_object: durableObject, proxy: proxy.proxy, practice: proxy.practice };
  return { ok: Object.values(components).every((c) => c.ok), components };
}

function insecure(settings: WorkerSettings): { warning?: string } {
  if (!settings.insecureProxy) return {};
  return {
    warning: `PROXY_ALLOW_HTTP is set: the proxy at ${settings.proxyUrl} is reached over plain http, so PROXY_SECRET and every command cross the network unencrypted`,
  };
}

async function checkD1(env: Env): Promise<ComponentHealth> {
  try {
    const n = await countRuns(env);
    return { ok: true, reason: `query ok; ${n} run${n === 1 ? '' : 's'} indexed` };
  } catch (err) {
    const message = errorText(err);
    if (/no such table/i.test(message)) {
      return {
        ok: false,
        reason: 'the runs table is missing; apply migrations: npx wrangler d1 migrations apply DB --local',
      };
    }
    return { ok: false, reason: `D1 query failed: ${message}` };
  }
}

async function checkDurableObject(env: Env): Promise<ComponentHealth> {
  const stub = env.RUN_SESSION.get(env.RUN_SESSION.idFromName('health-check'));
  const started = Date.now();
  const answer = await stub.ping();
  return { ok: answer.ok, reason: `RunSession answered in ${Date.now() - started} ms (storage ${answer.storage})` };
}

/** The proxy's own health report (which includes the range's address), or why there is none. */
export async function readProxyHealth(
  proxyUrl: string,
): Promise<{ ok: true; health: ProxyHealth } | { ok: false; reason: string }> {
  let response: Response;
  try {
    response = await fetch(`${proxyUrl}/health`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  } catch (err) {
    return {
      ok: false,
      reason: `the SSH proxy at ${proxyUrl} is unreachable (${errorText(err)}); start it with npm start or set PROXY_URL`,
    };
  }
  const parsed = proxyHealthSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    return {
      ok: false,
      reason: `${proxyUrl}/health answered ${response.status} without a valid health report: ${describeIssues(parsed.error)}`,
    };
  }
  return { ok: true, health: parsed.data };
}

async function checkProxy(proxyUrl: string): Promise<{ proxy: ComponentHealth; practice: ComponentHealth }> {
  const read = await readProxyHealth(proxyUrl);
  if (!read.ok) return unknownProxy(read.reason);
  const { practice, uptimeS, protocolVersion } = read.health;
  return {
    proxy: { ok: true, reason: `ssh-proxy up ${Math.round(uptimeS)} s, protocol v${protocolVersion}` },
    practice: { ok: practice.ok, reason: `${practice.address}: ${practice.reason}` },
  };
}

function unknownProxy(reason: string): { proxy: ComponentHealth; practice: ComponentHealth } {
  return {
    proxy: { ok: false, reason },
    practice: { ok: false, reason: 'unknown: the range is checked through the proxy' },
  };
}

async function guard(check: Promise<ComponentHealth>): Promise<ComponentHealth> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ComponentHealth>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([check, timeout]);
  } catch (err) {
    return { ok: false, reason: errorText(err) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
