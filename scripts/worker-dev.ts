// The worker for `npm start`, through wrangler's programmatic API rather than `wrangler dev`: the CLI
// always opens workerd's own DevTools inspector on a random loopback port, which takes WebSocket
// upgrades from any page (Runtime.evaluate could read the secrets). Here there is none unless asked for.
import { join } from 'node:path';
import { unstable_DevEnv } from 'wrangler';
import { z } from 'zod';
import { describeIssues } from '../schema/issues.ts';
import { useWorkerFront } from './use-worker-front.ts';
import { WorkerFront } from './worker-front.ts';

const root = join(import.meta.dirname, '..');
const port = z.coerce.number().int().min(1).max(65535);

/** What scripts/start.ts hands this child, already checked there; checked again since it crosses a process. */
const workerDevEnvSchema = z.object({
  WORKER_PORT: port,
  WORKER_PERSIST_DIR: z.string().min(1),
  PROXY_URL: z.url(),
  PROXY_SECRET: z.string().min(16),
  API_TOKEN: z.string().default(''),
  MAX_RUNNING_RUNS: z.string().optional(),
  MAX_SOCKETS_PER_RUN: z.string().optional(),
  RUN_CREATE_PER_MINUTE: z.string().optional(),
  RUN_CREATE_BURST: z.string().optional(),
  TERMINAL_IDLE_MS: z.string().optional(),
  WORKER_INSPECTOR_PORT: z.union([z.literal(''), port]).optional(),
});

/** [vars] of wrangler.toml that the environment may override: the queue's, sockets', creation and terminal limits. */
const LIMIT_VARS = [
  'MAX_RUNNING_RUNS',
  'MAX_SOCKETS_PER_RUN',
  'RUN_CREATE_PER_MINUTE',
  'RUN_CREATE_BURST',
  'TERMINAL_IDLE_MS',
] as const;

async function main(): Promise<void> {
  const parsed = workerDevEnvSchema.safeParse(process.env);
  if (!parsed.success)
    throw new Error(
      `scripts/worker-dev.ts is started by scripts/start.ts (npm start): ${describeIssues(parsed.error)}`,
    );
  const e = parsed.data;
  const s = {
    port: e.WORKER_PORT,
    persistTo: e.WORKER_PERSIST_DIR,
    proxyUrl: e.PROXY_URL,
    proxySecret: e.PROXY_SECRET,
    apiToken: e.API_TOKEN,
    inspectorPort: e.WORKER_INSPECTOR_PORT || null,
  };
  const vars: Record<string, { type: 'plain_text' | 'secret_text'; value: string }> = {
    PROXY_URL: { type: 'plain_text', value: s.proxyUrl },
    // The worker's limits, when set in the environment rather than in wrangler.toml (the worker checks them).
    ...Object.fromEntries(
      LIMIT_VARS.flatMap((name) => (e[name] ? [[name, { type: 'plain_text' as const, value: e[name] }]] : [])),
    ),
    // Bound as secrets, as `[secrets] required` in wrangler.toml declares them; API_TOKEN empty when unset.
    PROXY_SECRET: { type: 'secret_text', value: s.proxySecret },
    API_TOKEN: { type: 'secret_text', value: s.apiToken },
  };
  // Wrangler's local trace store and explorer, off unless asked for (X_LOCAL_OBSERVABILITY=true, X_LOCAL_EXPLORER=true):
  // the one streams every invocation's tail events into a SQLite file of its own, the other wraps each SQLite
  // Durable Object class. Neither exists on Cloudflare; with 500 runs at once the trace store wrote as much
  // to disk as the runs' own objects (docs/benchmarks.md, issue 34).
  process.env.X_LOCAL_OBSERVABILITY ??= 'false';
  process.env.X_LOCAL_EXPLORER ??= 'false';
  const devEnv = new unstable_DevEnv();
  // With no inspector wanted, wrangler's relay worker is replaced too: its live-reload socket answers
  // any localhost page. A person profiling the worker gets wrangler's own relay and inspector.
  // One line per request on stdout; npm start hides them unless asked (scripts/access-log.ts).
  const front = new WorkerFront({ log: (line) => console.log(line) });
  // biome-ignore lint/correctness/useHookAtTopLevel: not a React hook; it puts the front in wrangler's relay's place.
  if (!s.inspectorPort) useWorkerFront(devEnv, front, '127.0.0.1', s.port);
  const worker = await devEnv.startWorker({
    config: join(root, 'wrangler.toml'),
    bindings: vars,
    dev: {
      remote: false,
      server: { hostname: '127.0.0.1', port: s.port },
      // Off unless the person asks for a DevTools port (bench/stack --profile): then wrangler's
      // inspector proxy listens there, on loopback, and workerd's own inspector on a random port.
      inspector: s.inspectorPort ? { hostname: '127.0.0.1', port: s.inspectorPort } : false,
      persist: s.persistTo,
      // No dev registry: this worker binds to no other local worker, and the registry is shared state.
      registry: undefined,
      watch: true,
      liveReload: false,
    },
  });
  await worker.ready;
  console.log(
    `worker ready on ${(await worker.url).href}${s.inspectorPort ? ` (inspector on 127.0.0.1:${s.inspectorPort})` : ''}`,
  );

  let disposing = false;
  const stop = () => {
    if (disposing) return;
    disposing = true;
    // The supervisor sends SIGKILL to the whole group after its grace period if this hangs.
    void worker.dispose().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
}

main().catch((err: unknown) => {
  console.error(`could not start the worker: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
