// Analytics at scale: for 1,000 and then 10,000 runs (30 model calls, 60 commands, 90 node
// executions and 6 level roll-ups each), applies the real migrations to a local D1 with wrangler,
// seeds it through wrangler's platform proxy (Miniflare), starts the real worker with `wrangler
// dev` on that state and times each analytics request over loopback HTTP, as the web page makes it.
// `npm run bench:analytics` (BENCH_SIZES=1000,10000 by default).
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { freePort } from '../test/support/free-port.ts';
import { DAYS, ROWS_PER_RUN, seed, T0 } from './analytics-seed.ts';
import { median } from './stats.ts';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const REPEATS = 7;
const root = join(import.meta.dirname, '..');
const wrangler = join(root, 'node_modules/wrangler/bin/wrangler.js');
const quiet = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

const day = (d: number) => new Date(T0 + d * 86_400_000).toISOString();
const week = `from=${day(DAYS - 10)}&to=${day(DAYS - 3)}`;
// POST /api/forecast (issue 31): every model, six levels, from the same run_levels.
const FORECAST = JSON.stringify({ models: [0, 1, 2, 3, 4].map((m) => `bench-model-${m}`), startLevel: 0, endLevel: 5 });
const QUERIES: [name: string, path: string, body?: string][] = [
  ['summary', '/api/analytics/summary'],
  ['summary, one model, 7 days', `/api/analytics/summary?model=bench-model-1&${week}`],
  ['models', '/api/analytics/models'],
  ['models, 7 days', `/api/analytics/models?${week}`],
  ['levels (matrix)', '/api/analytics/levels'],
  ['levels, bandit, level 3', '/api/analytics/levels?target=bandit&level=3'],
  ['failures, first page', '/api/analytics/failures'],
  ['failures, one model, 7 days', `/api/analytics/failures?model=bench-model-2&${week}`],
  ['slow (> 5 s)', '/api/analytics/slow'],
  ['slow, one model, 7 days', `/api/analytics/slow?model=bench-model-3&${week}`],
  ['series by day', '/api/analytics/series'],
  [
    'series by hour, 7 days, unaligned',
    `/api/analytics/series?bucket=hour&from=${day(DAYS - 10).replace('00:00:00', '00:20:00')}&to=${day(DAYS - 3).replace('00:00:00', '00:40:00')}`,
  ],
  ['forecast, 5 models × 6 levels (POST)', '/api/forecast', FORECAST],
  ['board (rows per level set, medians)', '/api/board'],
  ['board, practice, 7 days', `/api/board?target=practice&${week}`],
];

async function startWorker(stateDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      wrangler,
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      stateDir,
      '--show-interactive-dev-session=false',
    ],
    {
      cwd: root,
      env: { ...quiet, PROXY_SECRET: 'bench', API_TOKEN: '' },
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
    if (
      await fetch(`${url}/api/analytics/summary`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
  }
  child.kill();
  throw new Error('wrangler dev did not answer within 60 s');
}

async function measure(runs: number): Promise<Map<string, number>> {
  const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-analytics-'));
  try {
    execFileSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir], {
      cwd: root,
      env: quiet,
      stdio: 'ignore',
    });
    const proxy = await getPlatformProxy<{ DB: D1Database }>({
      configPath: join(root, 'wrangler.toml'),
      persist: { path: join(stateDir, 'v3') },
    });
    const started = performance.now();
    try {
      await seed(proxy.env.DB, runs);
    } finally {
      await proxy.dispose();
    }
    console.log(
      `seeded ${runs} runs (${(runs * ROWS_PER_RUN).toLocaleString('en')} rows) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const { url, child } = await startWorker(stateDir);
    try {
      const times = new Map<string, number>();
      for (const [name, path, body] of QUERIES) {
        const init = body ? { method: 'POST', body, headers: { 'content-type': 'application/json' } } : {};
        const warm = await fetch(url + path, init);
        if (!warm.ok) throw new Error(`${path} answered ${warm.status}: ${await warm.text()}`);
        const samples: number[] = [];
        for (let i = 0; i < REPEATS; i++) {
          const t = performance.now();
          await (await fetch(url + path, init)).arrayBuffer();
          samples.push(performance.now() - t);
        }
        times.set(name, median(samples));
      }
      return times;
    } finally {
      child.kill('SIGINT');
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const results = [];
for (const size of SIZES) results.push({ size, times: await measure(size) });
console.log(`\nmedian of ${REPEATS} after a warm-up, ms per request (over loopback to wrangler dev)\n`);
console.log(`| query | ${results.map((r) => `${r.size.toLocaleString('en')} runs`).join(' | ')} | growth |`);
console.log(`|---|${results.map(() => '---').join('|')}|---|`);
for (const [name] of QUERIES) {
  const values = results.map((r) => r.times.get(name)!);
  const growth = values.length > 1 ? `${(values.at(-1)! / values[0]!).toFixed(1)}×` : '';
  console.log(`| ${name} | ${values.map((v) => v.toFixed(1)).join(' | ')} | ${growth} |`);
}
