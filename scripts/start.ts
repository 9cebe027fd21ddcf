// `npm start`: builds the web app, applies D1 migrations, starts the practice range, the SSH proxy (or
// PROXIES=N of them behind HAProxy, scripts/balancer.ts) and the worker (scripts/worker-dev.ts), waits until /api/health says every component is ok, and prints the URL.
// Ctrl-C (or SIGTERM) stops every child. Local state (D1, Durable Objects, host key) lives in STATE_DIR.
// The worker's access log is hidden (the UI polls every 2-3 s) unless `--access-log` or BANDIT_RUNNER_ACCESS_LOG=1.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { healthSchema } from '../schema/api.ts';
import type { Health } from '../schema/api.ts';
import { accessLogWanted, isAccessLogLine } from './access-log.ts';
import { findHaproxy, freeLoopbackPorts, haproxyConfig } from './balancer.ts';
import { RestartBudget } from './restart-budget.ts';
import { assertPortsFree, readStackSettings } from './stack-settings.ts';
import type { StackSettings } from './stack-settings.ts';
import { Supervisor } from './supervisor.ts';
import { ensureWebBuild } from './web-build.ts';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const READY_TIMEOUT_MS = 120_000;
/** A crashed proxy or range is started again after this long… */
const RESTART_DELAY_MS = 200;
/** …at most this many times a minute each; past that the stack stops, saying why. */
const RESTARTS_PER_MINUTE = 20;

/** Environment for wrangler: no telemetry and no update checks, since nothing beyond loopback is reachable. */
const quietWrangler = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

async function main(): Promise<void> {
  const settings = readStackSettings(process.env, root);
  const accessLog = accessLogWanted(process.argv.slice(2), process.env);
  await assertPortsFree(settings);
  // Asked before anything starts, so a missing HAProxy leaves nothing running.
  const haproxy = settings.proxies > 1 ? findHaproxy(process.env) : null;
  await ensureWebBuild(root, { log: (line) => console.log(`[start] ${line}`) });
  console.log('[start] applying D1 migrations…');
  await run('migrate', process.execPath, [
    wrangler,
    'd1',
    'migrations',
    'apply',
    'DB',
    '--local',
    '--persist-to',
    join(settings.stateDir, 'wrangler'),
  ]);

  let shuttingDown = false;
  const restarts = new RestartBudget(RESTARTS_PER_MINUTE, 60_000);
  const supervisor = new Supervisor((name, code) => {
    if (shuttingDown) return;
    // The proxies, the balancer and the range keep no state a run needs (the Durable Object holds it), so
    // a crash costs a retry, not the stack. The worker, or a child that keeps crashing, stops everything.
    if (name !== 'worker' && restarts.take(name)) {
      console.error(`[start] ${name} exited (${code}); starting it again`);
      setTimeout(() => supervisor.restart(name), RESTART_DELAY_MS);
      return;
    }
    console.error(`[start] ${name} exited (${code}); stopping the stack`);
    void shutdown(1);
  });
  const shutdown = async (code: number) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const hidden = supervisor.hidden ? ` (${supervisor.hidden} access-log lines were hidden)` : '';
    console.log(`[start] stopping…${hidden}`);
    await supervisor.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGHUP', () => void shutdown(0));

  await startChildren(supervisor, settings, accessLog, haproxy);
  const url = `http://127.0.0.1:${settings.workerPort}`;
  const health = await waitForHealth(url, settings.apiToken, () => shuttingDown);
  if (!health) return;
  const open = settings.apiToken ? `${url}/?token=<API_TOKEN> (once; the page keeps it for the tab)` : url;
  console.log(
    `\n  bandit-runner is ready: ${open}\n  SSH practice range:     ssh -p ${settings.practicePort} bandit0@127.0.0.1 (password bandit0)\n${
      accessLog
        ? ''
        : '  Requests are not logged here (npm start -- --access-log, or BANDIT_RUNNER_ACCESS_LOG=1, logs them).\n'
    }  Stop with Ctrl-C.\n`,
  );
}

async function startChildren(
  supervisor: Supervisor,
  s: StackSettings,
  accessLog: boolean,
  haproxy: string | null,
): Promise<void> {
  const env = {
    ...process.env,
    PRACTICE_PORT: String(s.practicePort),
    PROXY_PORT: String(s.proxyPort),
    PROXY_SECRET: s.proxySecret,
  };
  supervisor.start('range', process.execPath, [join(root, 'practice/main.ts'), '--port', String(s.practicePort)], {
    ...env,
    PRACTICE_HOST_KEY: join(s.stateDir, 'practice/host_key'),
    PRACTICE_SEED_FILE: join(s.stateDir, 'practice/seed'),
  });
  if (haproxy === null) supervisor.start('proxy', process.execPath, [join(root, 'ssh-proxy/main.ts')], env);
  else await startBalancedProxies(supervisor, s, env, haproxy);
  // Not `wrangler dev`: it always opens workerd's inspector, which any web page could drive.
  const hide = accessLog ? {} : { hide: isAccessLogLine };
  supervisor.start(
    'worker',
    process.execPath,
    [join(root, 'scripts/worker-dev.ts')],
    {
      ...quietWrangler,
      WORKER_PORT: String(s.workerPort),
      WORKER_PERSIST_DIR: join(s.stateDir, 'wrangler'),
      PROXY_URL: `http://127.0.0.1:${s.proxyPort}`,
      PROXY_SECRET: s.proxySecret,
      API_TOKEN: s.apiToken ?? '',
      // A DevTools port for profiling the worker (bench/stack --profile); else there is no inspector.
      WORKER_INSPECTOR_PORT: s.inspectorPort ? String(s.inspectorPort) : '',
    },
    hide,
  );
}

/** PROXIES=N: the proxies on free loopback ports, HAProxy in front of them on PROXY_PORT. */
async function startBalancedProxies(
  supervisor: Supervisor,
  s: StackSettings,
  env: NodeJS.ProcessEnv,
  haproxy: string,
): Promise<void> {
  const ports = await freeLoopbackPorts(s.proxies);
  ports.forEach((port, i) =>
    supervisor.start(`proxy-${i + 1}`, process.execPath, [join(root, 'ssh-proxy/main.ts')], {
      ...env,
      PROXY_PORT: String(port),
    }),
  );
  const config = join(s.stateDir, 'haproxy/haproxy.cfg');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, haproxyConfig(s.proxyPort, ports));
  // -W -db: the master stays in the foreground, so the supervisor holds it and stops it with the rest.
  supervisor.start('balancer', haproxy, ['-W', '-db', '-f', config], env);
  console.log(`[start] ${s.proxies} proxies behind HAProxy on 127.0.0.1:${s.proxyPort} (${config})`);
}

/** Polls /api/health until every component is ok; prints what is still down if it takes long. */
async function waitForHealth(url: string, apiToken: string | null, cancelled: () => boolean): Promise<Health | null> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline && !cancelled()) {
    try {
      const headers: Record<string, string> = apiToken ? { authorization: `Bearer ${apiToken}` } : {};
      const response = await fetch(`${url}/api/health`, { headers, signal: AbortSignal.timeout(3_000) });
      const parsed = healthSchema.safeParse(await response.json());
      if (parsed.success && parsed.data.ok) return parsed.data;
      if (parsed.success) {
        last = Object.entries(parsed.data.components)
          .filter(([, c]) => !c.ok)
          .map(([name, c]) => `${name}: ${c.reason}`)
          .join('; ');
      }
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  if (!cancelled()) {
    console.error(`[start] the stack did not become healthy within ${READY_TIMEOUT_MS / 1000} s: ${last}`);
    process.kill(process.pid, 'SIGTERM');
  }
  return null;
}

/** Runs a command to completion with prefixed output; rejects on a non-zero exit. */
function run(name: string, command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: quietWrangler, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (exit ${code}):\n${output.join('').trim()}`)),
    );
  });
}

main().catch((err: unknown) => {
  console.error(`[start] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
