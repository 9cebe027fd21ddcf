// bench/queue: the run queue and streamed thinking on the whole stack as `npm start` runs it.
// Measures (1) the delay from a slot freeing to the next queued run starting, with MAX_RUNNING_RUNS=1
// and a line of N baseline runs (the run's own endedAt to the next one's startedAt, both stamped by
// the Durable Objects); (2) the delay from a token leaving a fake streaming endpoint to its
// thinking_delta reaching a WebSocket client in this process, with the proxy's coalescing at its
// default (100 ms) and at 1 ms. Prints figures and asserts nothing.
// Usage: node bench/queue.ts [--queued 100] [--calls 20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunSummary } from '../schema/run.ts';
import { serverMessageSchema } from '../schema/protocol.ts';
import { startFakeOpenAi, toolCall } from '../test/support/fake-openai.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import type { StackProcess } from '../test/support/stack-process.ts';
import { wallNow } from './run-watcher.ts';
import { percentile } from './stats.ts';

const { values } = parseArgs({
  options: { queued: { type: 'string', default: '100' }, calls: { type: 'string', default: '20' } },
});
const QUEUED = Number(values.queued);
const CALLS = Number(values.calls);
const PIECES = 25;

// The streamer thinks in 25 pieces 20 ms apart, each stamped with the time it leaves the endpoint,
// then runs a new command; its runs never solve, so every plan call streams.
const fake = await startFakeOpenAi();
let turn = 0;
fake.respond((request) => {
  if (!request.tools)
    return {
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: '- again' }, finish_reason: 'stop' }],
      },
    };
  const pieces = Array.from({ length: PIECES }, () => '«{now}» ');
  // A new command each turn, or the agent's loop detection would end the attempts early.
  return { ...toolCall('run_command', { command: `echo ${++turn}` }, pieces.join('')), pieces, pieceDelayMs: 20 };
});
const providers = { providers: [{ name: 'bench', baseUrl: fake.baseUrl, maxConcurrent: 8, models: ['streamer'] }] };

async function withStack<T>(env: Record<string, string>, work: (stack: StackProcess) => Promise<T>): Promise<T> {
  const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-bench-queue-'));
  const stack = await startStackProcess(stateDir, undefined, { PROVIDERS: JSON.stringify(providers), ...env });
  try {
    return await work(stack);
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

async function post<T>(stack: StackProcess, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
const get = async <T>(stack: StackProcess, path: string): Promise<T> =>
  (await (await fetch(`${stack.url}${path}`)).json()) as T;

/** (1) One slot, a line of QUEUED + 1 baseline runs that each solve level 0 and end. */
async function slotToStart(stack: StackProcess): Promise<number[]> {
  // Made all at once, so the line is (nearly) whole before the first run ends.
  const runs = await Promise.all(
    Array.from({ length: QUEUED + 1 }, () => post<RunSummary>(stack, '/api/runs', { endLevel: 0, maxRetries: 1 })),
  );
  const waiting = (await get<{ waiting: unknown[] }>(stack, '/api/queue')).waiting.length;
  console.log(`  ${runs.length} runs made; ${waiting} waiting in line behind the one running`);
  const deadline = Date.now() + 15 * 60_000;
  let done: RunSummary[] = [];
  while (Date.now() < deadline) {
    done = await Promise.all(runs.map((r) => get<RunSummary>(stack, `/api/runs/${r.id}`)));
    if (done.every((r) => r.endedAt !== null)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  // One slot: each run starts after the one before it (in start order) has ended.
  done.sort((a, b) => Date.parse(a.startedAt ?? '') - Date.parse(b.startedAt ?? ''));
  const delays: number[] = [];
  for (let i = 1; i < done.length; i++) {
    const ended = done[i - 1]!.endedAt;
    const started = done[i]!.startedAt;
    if (ended && started) delays.push(Date.parse(started) - Date.parse(ended));
  }
  return delays;
}

/** (2) CALLS plan calls of the streamer, watched over a WebSocket: per piece, sent → received. */
async function tokenToSocket(stack: StackProcess): Promise<number[]> {
  const run = await post<RunSummary>(stack, '/api/runs', {
    model: 'bench/streamer',
    endLevel: 0,
    maxRetries: 10,
    budget: 100,
    finalAttempt: false,
  });
  const latencies: number[] = [];
  const ws = new WebSocket(`${stack.url.replace(/^http/, 'ws')}/api/runs/${run.id}/ws?since=0`);
  await new Promise<void>((resolve) => {
    let calls = 0;
    ws.onmessage = (message) => {
      const received = wallNow();
      const parsed = serverMessageSchema.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'thinking_delta')
        for (const [, sent] of msg.text.matchAll(/«([\d.]+)»/g)) latencies.push(received - Number(sent));
      const events = msg.type === 'events' ? msg.events : msg.type === 'event' ? [msg.event] : [];
      if (events.some((e) => e.type === 'llm_call' && e.stage === 'plan') && ++calls >= CALLS) resolve();
    };
  });
  ws.close();
  await post(stack, `/api/runs/${run.id}/actions`, { action: 'stop' });
  return latencies;
}

const line = (name: string, samples: number[]) =>
  console.log(
    `  ${name.padEnd(44)} n=${String(samples.length).padStart(5)}  p50 ${percentile(samples, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(samples, 99).toFixed(1).padStart(7)} ms`,
  );

console.log(`bench/queue (${new Date().toISOString()})`);
await withStack({ MAX_RUNNING_RUNS: '1' }, async (stack) => {
  line(`slot freed → next queued run started (${QUEUED} queued)`, await slotToStart(stack));
  line('token sent → thinking_delta on a socket (PROXY_LIVE_MS=100)', await tokenToSocket(stack));
});
await withStack({ PROXY_LIVE_MS: '1' }, async (stack) => {
  line('token sent → thinking_delta on a socket (PROXY_LIVE_MS=1)', await tokenToSocket(stack));
});
await fake.close();
