// bench/hosting-cost: what hosting 1,000 levels costs on Cloudflare beside what the model costs for them (issue 34),
// from the runs' own counters. N runs of a priced model (quick/mini at $0.15 / $0.60 per million tokens, OpenAI's
// published gpt-4o-mini price) play on the stack as `npm start` runs it, a few at a time, each watched by one socket
// as its page would be; the moves are the offline baseline's, served by a fake OpenAI endpoint through the proxy's
// real prompts, which reports each call's tokens as its text's length over 4 (a rough rule for English). When a run
// pauses, GET /api/runs/:id gives its object's counts (schema/hosting.ts); GET /api/queue the queue's, shared by the
// runs; the local D1 file its bytes. Prices: schema/hosting.ts. Prints figures and asserts nothing.
// Usage: node bench/hosting-cost.ts [--runs 20] [--at-once 4] [--call-seconds 2]
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import type { HostingUsage } from '../schema/hosting.ts';
import { CLOUDFLARE_PRICES, emptyUsageCounts, hostingCost } from '../schema/hosting.ts';
import type { RunEvent } from '../schema/protocol.ts';
import type { QueueStatus } from '../schema/queue.ts';
import type { RunSummary } from '../schema/run.ts';
import { baselineResponder } from '../scripts/fake-llm/baseline-responder.ts';
import type { FakeReply } from '../test/support/fake-openai.ts';
import { startFakeOpenAi } from '../test/support/fake-openai.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import { watchRun } from './run-watcher.ts';
import { stackApi } from './stack-api.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    'at-once': { type: 'string', default: '4' },
    'call-seconds': { type: 'string', default: '2' },
  },
});
const RUNS = Number(values.runs);
const AT_ONCE = Number(values['at-once']);
/** How long a real model takes per call, for the duration a real run would be billed (the fake answers at once). */
const CALL_SECONDS = Number(values['call-seconds']);
const PRICE = { input: 0.15, output: 0.6 };
const MODEL = 'quick/mini';
/** Characters per token: OpenAI's rule of thumb for English text. */
const CHARS_PER_TOKEN = 4;

const tokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);
const inner = baselineResponder({ pieceDelayMs: 0, persona: 'Quick' });
const fake = await startFakeOpenAi();
// The baseline's move, with usage as a real endpoint would count it: the request's messages and tools in, the
// thinking and the tool call out.
fake.respond(async (request, n) => {
  const reply = (await inner(request, n)) as FakeReply & { body: { choices: { message: unknown }[]; usage?: unknown } };
  const prompt = tokens(JSON.stringify(request.messages)) + tokens(JSON.stringify(request.tools ?? []));
  const completion = tokens(JSON.stringify(reply.body.choices[0]?.message ?? ''));
  reply.body.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  return reply;
});
const providers = {
  providers: [{ name: 'quick', baseUrl: fake.baseUrl, maxConcurrent: 16, models: [{ name: 'mini', price: PRICE }] }],
};
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-hosting-'));
const stack = await startStackProcess(stateDir, undefined, { PROVIDERS: JSON.stringify(providers) });

const api = stackApi(stack.url);

/** The bytes D1's rows take in the local D1 file: its pages less the free ones. */
function d1Bytes(): number {
  const dir = join(stateDir, 'wrangler/v3/d1/miniflare-D1DatabaseObject');
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (!file) return 0;
  const db = new DatabaseSync(join(dir, file), { readOnly: true });
  const one = (pragma: string) => Object.values(db.prepare(`PRAGMA ${pragma}`).get() ?? {})[0] as number;
  const bytes = (one('page_count') - one('freelist_count')) * one('page_size');
  db.close();
  return bytes;
}

type Played = {
  usage: HostingUsage;
  levels: number;
  solved: number;
  prompt: number;
  completion: number;
  calls: number;
};
const isPause = (e: RunEvent) => e.type === 'user_action_required' || e.type === 'run_complete';

/** One run from creation to its first pause, watched by one socket; its object's counts read at the end. */
async function play(): Promise<Played> {
  const run = await api<RunSummary>('/api/runs', { model: MODEL, maxRetries: 1 });
  const watcher = await watchRun(stack.url, run.id, 0, isPause);
  await watcher.reached;
  watcher.close();
  const details = await api<RunSummary>(`/api/runs/${run.id}`);
  if (!details.hosting) throw new Error('GET /api/runs/:id gave no hosting counts: is the worker older than issue 34?');
  const events = watcher.events;
  const calls = events.filter((e) => e.type === 'llm_call');
  return {
    usage: details.hosting,
    levels: new Set(events.flatMap((e) => (e.type === 'level_started' ? [e.level] : []))).size,
    solved: events.filter((e) => e.type === 'level_complete').length,
    prompt: calls.reduce((n, e) => n + (e.type === 'llm_call' ? e.promptTokens : 0), 0),
    completion: calls.reduce((n, e) => n + (e.type === 'llm_call' ? e.completionTokens : 0), 0),
    calls: calls.length,
  };
}

/** Requests this bench made of the Worker per run: the create, the socket, the read of the counts. */
const WORKER_REQUESTS_PER_RUN = 3;
const usd = (n: number) => (n >= 0.01 ? `$${n.toFixed(2)}` : `$${n.toPrecision(2)}`);

try {
  await play(); // warm-up: the code paths compiled, the queue and D1 made
  const queueBefore = (await api<QueueStatus>('/api/queue')).hosting;
  const d1Before = d1Bytes();
  const played: Played[] = [];
  for (let i = 0; i < RUNS; i += AT_ONCE)
    played.push(...(await Promise.all(Array.from({ length: Math.min(AT_ONCE, RUNS - i) }, play))));
  const queueAfter = (await api<QueueStatus>('/api/queue')).hosting;
  const d1Stored = Math.max(0, d1Bytes() - d1Before);

  const sum = (key: keyof Played) => played.reduce((n, p) => n + (p[key] as number), 0);
  const usage: HostingUsage = { ...emptyUsageCounts(), storedBytes: 0 };
  for (const p of played) for (const key of Object.keys(usage) as (keyof HostingUsage)[]) usage[key] += p.usage[key];
  // The queue's counts since the first run: its share of these runs (it is one object for all of them).
  if (queueBefore && queueAfter)
    for (const key of Object.keys(usage) as (keyof HostingUsage)[])
      if (key !== 'storedBytes') usage[key] += queueAfter[key] - queueBefore[key];
  const levels = sum('levels');
  const calls = sum('calls');
  const scale = 1000 / levels;
  const cost = hostingCost(usage, { workerRequests: WORKER_REQUESTS_PER_RUN * RUNS, d1StoredBytes: d1Stored });
  // A real model answers in seconds; the object is billed as active while it waits for the proxy meanwhile.
  const slowUsage = { ...usage, activeMs: usage.activeMs + calls * CALL_SECONDS * 1000 };
  const slowDuration = hostingCost(slowUsage, { workerRequests: 0, d1StoredBytes: 0 }).doDuration;
  const modelCost = (sum('prompt') * PRICE.input + sum('completion') * PRICE.output) / 1e6;

  const per = (n: number) => (n * scale).toLocaleString('en-US', { maximumFractionDigits: 0 });
  console.log(
    `bench/hosting-cost — ${RUNS} runs of ${MODEL} (${AT_ONCE} at a time), ${levels} levels played (${sum('solved')} solved), ${calls} model calls; ${new Date().toISOString()}`,
  );
  console.log(
    `prices: Cloudflare Workers Paid as of ${CLOUDFLARE_PRICES.asOf} (schema/hosting.ts), past the included amounts\n`,
  );
  console.log('| per 1,000 levels played | count | cost |');
  console.log('|---|---|---|');
  const line = (what: string, count: string, usdCost: number) =>
    console.log(`| ${what} | ${count} | ${usd(usdCost * scale)} |`);
  const d = CLOUDFLARE_PRICES.durableObjects;
  line(
    'Durable Object requests (RPC, fetch, alarm; socket messages ÷ 20)',
    per(usage.requests + usage.socketMessages / d.socketMessagesPerRequest),
    cost.doRequests,
  );
  line(
    'Durable Object duration (128 MB while its alarm works), fake model',
    `${per(usage.activeMs / 1000)} s`,
    cost.doDuration,
  );
  line(`… with a model taking ${CALL_SECONDS} s a call`, `${per(slowUsage.activeMs / 1000)} s`, slowDuration);
  line(
    'Durable Object SQLite rows written (with alarm writes)',
    per(usage.rowsWritten + usage.alarmWrites),
    cost.doRowsWritten,
  );
  line('Durable Object SQLite rows read', per(usage.rowsRead), cost.doRowsRead);
  line('D1 rows written', per(usage.d1RowsWritten), cost.d1RowsWritten);
  line('D1 rows read', per(usage.d1RowsRead), cost.d1RowsRead);
  line(
    'Worker requests (create, socket, read; no page views)',
    per(WORKER_REQUESTS_PER_RUN * RUNS),
    cost.workersRequests,
  );
  line('**Cloudflare, all of the above** (fake model)', '', cost.total);
  line(`**Cloudflare, all of the above** (${CALL_SECONDS} s a call)`, '', cost.total - cost.doDuration + slowDuration);
  line(
    "Storage a month: the objects' SQLite + D1",
    `${per(usage.storedBytes / 1024)} KiB + ${per(d1Stored / 1024)} KiB`,
    cost.storagePerMonth,
  );
  line(
    `**Model: ${MODEL}** ($${PRICE.input} / $${PRICE.output} per million tokens in / out)`,
    `${per(sum('prompt'))} + ${per(sum('completion'))} tokens`,
    modelCost,
  );
  console.log(
    `\nper run: ${(usage.rowsWritten / RUNS).toFixed(0)} SQLite rows written, ${(usage.d1RowsWritten / RUNS).toFixed(0)} D1 rows written, ${(usage.requests / RUNS).toFixed(1)} requests, ${(usage.storedBytes / RUNS / 1024).toFixed(0)} KiB stored in its object, ${(d1Stored / RUNS / 1024).toFixed(0)} KiB in D1; the model is ${(modelCost / (cost.total - cost.doDuration + slowDuration)).toFixed(1)}× Cloudflare's cost (${CALL_SECONDS} s a call)`,
  );
} finally {
  await stack.stop();
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
}
