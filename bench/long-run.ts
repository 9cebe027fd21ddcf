// bench/long-run: what a long run costs on the real worker (issue 34, "Long runs stay cheap"). The worker runs
// under wrangler as `npm start` runs it, its proxy a stand-in (long-run-proxy.ts) that plays a run of 5,000 and
// 50,000 events in one advance, so the worker stores the log itself, step by step. For each run it prints:
// replay to a new socket (`since=0` until the last event, gap-free and in order), the run page in Chromium
// (time until the latest event's row exists, JS heap after a GC), and GET /api/runs/:id/artifacts (bytes,
// time, and workerd's resident memory before and at its peak while the zip streams, sampled from /proc).
// Each figure is the median of --rounds. Asserts nothing.
// Usage: node bench/long-run.ts [--events 5000,50000] [--rounds 3] [--skip page,archive] [--profile DIR]
//   [--heap | --heap-gc] [--page-trace DIR]
// (--profile DIR: a CPU profile of each size's first archive in DIR; --heap: the worker's JS heap after a GC
// before each archive and at its peak while it streams, sampled every 50 ms; --heap-gc: the same with a
// collection asked for before each sample (every 200 ms), so the peak is what was live. Each starts the
// worker with wrangler's inspector, whose relay then carries every request: time the rest without them.
// --page-trace DIR: a Chromium trace of one more page open per size, with its JS CPU profile, in DIR; it is
// not in the figures, as tracing slows the page.)
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import type { RunSummary } from '../schema/run.ts';
import { ensureWebBuild } from '../scripts/web-build.ts';
import { launchChromium } from '../test/support/browser.ts';
import { freePort } from '../test/support/free-port.ts';
import { startLongRunProxy } from './long-run-proxy.ts';
import { cpuSeconds, sampleMemory } from './process-usage.ts';
import { median } from './stats.ts';
import { workerHeap } from './worker-heap.ts';
import { profileWorker } from './worker-profiler.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000,50000' },
    rounds: { type: 'string', default: '3' },
    skip: { type: 'string', default: '' },
    profile: { type: 'string' },
    heap: { type: 'boolean', default: false },
    'heap-gc': { type: 'boolean', default: false },
    'page-trace': { type: 'string' },
  },
});
const SIZES = values.events.split(',').map(Number);
const ROUNDS = Number(values.rounds);
const SKIP = new Set(values.skip.split(','));
const root = join(import.meta.dirname, '..');
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const quiet = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

await ensureWebBuild(root);
const proxy = await startLongRunProxy();
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-long-run-'));
execFileSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir], {
  cwd: root,
  env: quiet,
  stdio: 'ignore',
});
const port = await freePort();
const inspectorPort = values.profile || values.heap || values['heap-gc'] ? await freePort() : null;
const base = `http://127.0.0.1:${port}`;
const worker = await startWorker();
// Stopped with the bench, however it ends: the worker has its own process group.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    process.kill(-(worker.pid ?? 0), 'SIGTERM');
    process.exit(1);
  });
/** The worker's heap through its inspector, opened once the worker has served requests (it lists no worker before). */
const inspector: { heap: Awaited<ReturnType<typeof workerHeap>> | null } = { heap: null };

/** The worker as scripts/start.ts starts it, with the stand-in proxy. */
async function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(root, 'scripts/worker-dev.ts')], {
    cwd: root,
    env: {
      ...quiet,
      WORKER_PORT: String(port),
      WORKER_PERSIST_DIR: stateDir,
      PROXY_URL: proxy.url,
      PROXY_SECRET: 'bench-long-run-proxy-secret-0000',
      API_TOKEN: '',
      WORKER_INSPECTOR_PORT: inspectorPort ? String(inspectorPort) : '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so wrangler's workerd stops with it.
    detached: true,
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker ready')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the worker exited (${code}):\n${output}`)));
  });
  return child;
}

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`${base}${path}`, init);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A run of about `size` events, stored by the worker; resolves once it completed and D1 has its model calls. */
async function makeRun(size: number): Promise<{ id: string; lastSeq: number; seededS: number }> {
  proxy.size = size;
  const started = performance.now();
  const body = { model: 'baseline', target: 'practice', startLevel: 0, endLevel: 32, maxRetries: 10 };
  const run = await json<RunSummary>('/api/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  while ((await json<RunSummary>(`/api/runs/${run.id}`)).status !== 'completed') await sleep(250);
  // The D1 mirror flushes after the call: the last model call is served once it is there.
  while ((await fetch(`${base}/api/runs/${run.id}/llm-calls/${proxy.lastCallId}`)).status !== 200) await sleep(250);
  const page = await json<{ lastSeq: number }>(`/api/runs/${run.id}/events?since=0&limit=1`);
  return { id: run.id, lastSeq: page.lastSeq, seededS: (performance.now() - started) / 1000 };
}

/** A new socket's replay from `since=0` until `lastSeq`: its time, and whether every seq came once and in order. */
function replay(id: string, lastSeq: number): Promise<{ ms: number; inOrder: boolean }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/runs/${id}/ws?since=0`);
    let next = 1;
    let inOrder = true;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; events?: { seq: number }[] };
      if (message.type !== 'events') return;
      for (const event of message.events ?? []) inOrder &&= event.seq === next++;
      if (next > lastSeq) {
        resolve({ ms: performance.now() - started, inOrder: inOrder && next === lastSeq + 1 });
        ws.close();
      }
    });
    ws.on('error', reject);
  });
}

/** The run page opened in Chromium: ms from navigation until the latest event's row exists, heap after a GC. */
async function openPage(
  id: string,
  lastSeq: number,
  trace: string | null,
): Promise<{ shownMs: number; heapMb: number }> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const categories = ['devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler', 'blink.user_timing'];
    if (trace) await browser.startTracing(page, { path: trace, categories });
    await page.goto(`${base}/run?id=${id}`);
    const handle = await page.waitForFunction(
      (seq) => (document.getElementById(`seq-${seq}`) ? performance.now() : null),
      lastSeq,
      { timeout: 120_000, polling: 'raf' },
    );
    const shownMs = (await handle.jsonValue()) as number;
    if (trace) {
      await browser.stopTracing();
      console.log(`  page trace: ${trace}`);
    }
    await page.waitForTimeout(1000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return { shownMs, heapMb: usedSize / 1024 / 1024 };
  } finally {
    await browser.close();
  }
}

/** The archive downloaded whole: its bytes, time and workerd's CPU time, and workerd's resident memory before and at its peak. */
async function archive(
  id: string,
  profile: string | null,
): Promise<{ mb: number; s: number; cpuS: number; rssBefore: number; rssPeak: number; heap: number[] }> {
  if ((values.heap || values['heap-gc']) && inspectorPort) inspector.heap ??= await workerHeap(inspectorPort);
  const heap = inspector.heap;
  const heapBefore = heap ? await heap.afterGc() : null;
  const heapSampler = heap?.sample(values['heap-gc'] ? 200 : 50, values['heap-gc']);
  const before =
    sampleMemory(worker.pid ?? 0, 50)
      .stop()
      .get('workerd') ?? 0;
  const cpuBefore = cpuSeconds(worker.pid ?? 0).get('workerd') ?? 0;
  const profiler = profile && inspectorPort ? await profileWorker(inspectorPort) : null;
  const sampler = sampleMemory(worker.pid ?? 0, 50);
  const started = performance.now();
  const response = await fetch(`${base}/api/runs/${id}/artifacts`);
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const s = (performance.now() - started) / 1000;
  const rssPeak = sampler.stop().get('workerd') ?? 0;
  const cpuS = (cpuSeconds(worker.pid ?? 0).get('workerd') ?? 0) - cpuBefore;
  const heapPeak = heapSampler ? await heapSampler.stop() : null;
  if (profiler && profile) console.log(`  profile: ${(await profiler.stop(profile)).join(', ')}`);
  const heapFigures = heapBefore !== null && heapPeak !== null ? [heapBefore, heapPeak] : [];
  return { mb: bytes / 1024 / 1024, s, cpuS, rssBefore: before, rssPeak, heap: heapFigures };
}

const f = (n: number, digits = 0) => n.toFixed(digits);
const rows: string[] = [];
try {
  for (const size of SIZES) {
    const { id, lastSeq, seededS } = await makeRun(size);
    console.log(
      `run ${id}: ${lastSeq} events stored in ${f(seededS, 1)} s` +
        (proxy.calls ? ` (the worker called the proxy again ${proxy.calls} times, from its checkpoint)` : ''),
    );
    proxy.calls = 0;
    const replays: number[] = [];
    let inOrder = true;
    for (let i = 0; i < Math.max(ROUNDS, 5); i++) {
      const r = await replay(id, lastSeq);
      replays.push(r.ms);
      inOrder &&= r.inOrder;
    }
    console.log(`  replay to a new socket: ${replays.map((ms) => f(ms)).join(' / ')} ms, in order: ${inOrder}`);
    const pages: { shownMs: number; heapMb: number }[] = [];
    // The traced open is one more, not counted: tracing slows the page.
    if (values['page-trace'] && !SKIP.has('page'))
      await openPage(id, lastSeq, join(values['page-trace'], `run-page-${size}-${Date.now()}.json`));
    for (let i = 0; i < ROUNDS && !SKIP.has('page'); i++) pages.push(await openPage(id, lastSeq, null));
    if (pages.length)
      console.log(
        `  page: latest event shown ${pages.map((p) => f(p.shownMs)).join(' / ')} ms, heap ${pages.map((p) => f(p.heapMb, 1)).join(' / ')} MB`,
      );
    const zips: Awaited<ReturnType<typeof archive>>[] = [];
    for (let i = 0; i < ROUNDS && !SKIP.has('archive'); i++) {
      const profile = values.profile && i === 0 ? join(values.profile, `long-run-${size}-${Date.now()}`) : null;
      zips.push(await archive(id, profile));
      const z = zips.at(-1)!;
      console.log(
        `  archive: ${f(z.mb, 1)} MB in ${f(z.s, 2)} s (workerd CPU ${f(z.cpuS, 2)} s); workerd RSS ${f(z.rssBefore)} MiB before, ${f(z.rssPeak)} MiB at peak` +
          (z.heap.length ? `; worker JS heap ${f(z.heap[0]!, 1)} MiB after a GC, ${f(z.heap[1]!, 1)} MiB at peak` : ''),
      );
    }
    const m = (list: number[]) => (list.length ? median(list) : Number.NaN);
    rows.push(
      `| ${lastSeq} | ${f(m(replays))} ms | ${f(m(pages.map((p) => p.shownMs)))} ms | ${f(m(pages.map((p) => p.heapMb)), 1)} MB | ` +
        `${f(m(zips.map((z) => z.mb)), 1)} MB | ${f(m(zips.map((z) => z.s)), 2)} s (CPU ${f(m(zips.map((z) => z.cpuS)), 2)} s) | ` +
        `${f(m(zips.map((z) => z.rssBefore)))} → ${f(m(zips.map((z) => z.rssPeak)))} MiB (+${f(m(zips.map((z) => z.rssPeak - z.rssBefore)))}) |` +
        (values.heap || values['heap-gc']
          ? ` ${f(m(zips.map((z) => z.heap[0] ?? 0)), 1)} → ${f(m(zips.map((z) => z.heap[1] ?? 0)), 1)} MiB |`
          : ''),
    );
  }
} finally {
  inspector.heap?.close();
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  process.kill(-(worker.pid ?? 0), 'SIGTERM');
  await exited;
  await proxy.close();
  rmSync(stateDir, { recursive: true, force: true });
}
console.log(
  `\n| events | replay to a new socket | latest event shown | JS heap | archive | archive time | workerd RSS while streaming it |${values.heap || values['heap-gc'] ? " worker's JS heap after a GC → peak while streaming |" : ''}`,
);
console.log(`|---|---|---|---|---|---|---|${values.heap || values['heap-gc'] ? '---|' : ''}`);
for (const row of rows) console.log(row);
console.log(
  '\nTargets: latest event within 1 s, heap under 150 MB, replay under 0.5 s, archive memory flat in the run.',
);
