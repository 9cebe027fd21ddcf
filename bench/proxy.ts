// bench/proxy: the SSH proxy's memory per active run, and how fast it plays the range with the
// baseline model when many runs share it. The range and the proxy run as their own processes;
// the proxy's resident memory is read from /proc. Prints figures, asserts nothing.
// Usage: node bench/proxy.ts [--runs N]
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseReply } from '../test/support/advance-client.ts';
import { advanceBody, postAdvance } from '../test/support/advance-client.ts';
import { startFakeOpenAi, toolCall } from '../test/support/fake-openai.ts';
import { freePort } from '../test/support/free-port.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '50' } } });
const RUNS = Number(values.runs);
const SECRET = 'bench-secret-0123456789';

function start(script: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) =>
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('listening') && resolve(child)),
  );
}

const rssMiB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const runId = (prefix: string, i: number) => `run_${prefix}${String(i).padStart(20, '0')}`;

const fake = await startFakeOpenAi();
const rangePort = await freePort();
const proxyPort = await freePort();
const range = await start('../practice/main.ts', ['--port', String(rangePort), '--seed', 'bench', '--quiet'], {});
const proxy = await start('../ssh-proxy/main.ts', [], {
  PROXY_PORT: String(proxyPort),
  PROXY_SECRET: SECRET,
  PRACTICE_PORT: String(rangePort),
  PROXY_SLICE_MS: '60000',
  OPENAI_BASE_URL: fake.baseUrl,
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_MODELS: 'held-model',
  OPENAI_TIMEOUT_MS: '120000',
  PROXY_CALL_MAX_MS: '180000',
});
const to = { proxyUrl: `http://127.0.0.1:${proxyPort}`, proxySecret: SECRET };
const pid = proxy.pid ?? 0;

// Warm up: one full baseline run so code paths are compiled before anything is measured.
await parseReply(await (await postAdvance(to, advanceBody(runId('warm', 0), { maxRetries: 1 }))).text());
await sleep(500);
const idle = rssMiB(pid);

// 1. Memory per active run: each run logged in over SSH and waiting on its model's answer.
fake.respond(() => ({ ...toolCall('run_command', { command: 'true' }), delayMs: 60_000 }));
const holders = Array.from({ length: RUNS }, () => new AbortController());
const held = holders.map((abort, i) =>
  postAdvance(to, advanceBody(runId('hold', i), { model: 'held-model' }), { signal: abort.signal }),
);
await Promise.all(held);
while (fake.requests.length < RUNS) await sleep(20);
await sleep(500);
const holding = rssMiB(pid);
for (const abort of holders) abort.abort();
await sleep(500);

// 2. Throughput: RUNS baseline runs at once, from level 0 to their first pause.
let peak = rssMiB(pid);
const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 25);
const started = performance.now();
const replies = await Promise.all(
  Array.from({ length: RUNS }, async (_, i) =>
    parseReply(await (await postAdvance(to, advanceBody(runId('play', i), { maxRetries: 1 }))).text()),
  ),
);
const elapsed = performance.now() - started;
clearInterval(sampler);
const commands = replies.reduce((n, r) => n + r.events.filter((e) => e.type === 'command').length, 0);
const solved = replies.map((r) => r.events.filter((e) => e.type === 'level_complete').length);
const checkpointBytes = replies.map((r) => JSON.stringify(r.last).length);

console.log(`bench/proxy — ${RUNS} runs, proxy pid ${pid}`);
console.log('| measure | value |');
console.log('|---|---|');
console.log(`| proxy RSS idle (after warm-up) | ${idle.toFixed(1)} MiB |`);
console.log(
  `| proxy RSS with ${RUNS} runs active (SSH session open, model call pending) | ${holding.toFixed(1)} MiB |`,
);
console.log(`| memory per active run | ${(((holding - idle) * 1024) / RUNS).toFixed(0)} KiB |`);
console.log(`| ${RUNS} baseline runs 0 → first pause, wall time | ${(elapsed / 1000).toFixed(2)} s |`);
console.log(`| levels solved per run | ${Math.min(...solved)}–${Math.max(...solved)} |`);
console.log(`| commands run (all runs) | ${commands} (${(commands / (elapsed / 1000)).toFixed(0)} per s) |`);
console.log(`| proxy RSS peak while playing | ${peak.toFixed(1)} MiB |`);
console.log(`| checkpoint size at the pause | ${Math.min(...checkpointBytes)}–${Math.max(...checkpointBytes)} bytes |`);

proxy.kill('SIGTERM');
range.kill('SIGTERM');
await fake.close();
