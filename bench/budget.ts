// bench/budget: what caps (issue 31) cost on the whole stack as `npm start` runs it. A priced model behind a
// fake OpenAI endpoint (the baseline's moves, streamed with no delay) plays levels 0–12 in four modes: no caps,
// generous run caps, a batch without a cap, a batch with a generous cost cap; per run, the wall time (startedAt →
// endedAt, stamped by its Durable Object) and that over its llm_call count. Then GET /api/runs/:id, whose
// `spend` a capped batch's run asks of the queue. Prints figures and asserts nothing. --at-once 1 leaves each run
// alone on the stack (the caps' own cost); 2, the default, lets a capped batch's runs contend for their shares.
// Usage: node bench/budget.ts [--runs 8] [--at-once 2] [--gets 200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunEvent } from '../schema/protocol.ts';
import type { RunSummary } from '../schema/run.ts';
import { baselineResponder } from '../scripts/fake-llm/baseline-responder.ts';
import { startFakeOpenAi } from '../test/support/fake-openai.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import type { StackProcess } from '../test/support/stack-process.ts';
import { median, percentile } from './stats.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '8' },
    'at-once': { type: 'string', default: '2' },
    gets: { type: 'string', default: '200' },
  },
});
const RUNS = Number(values.runs);
const AT_ONCE = Number(values['at-once']);
const GETS = Number(values.gets);

const MODEL = 'quick/mini';
const LEVELS = { startLevel: 0, endLevel: 12 };
// Generous: a run of 13 levels spends about $0.001, some 20 calls and 40 commands in a few seconds.
const RUN_CAPS = { maxCostUsd: 100, maxTokens: 1e9, maxWallSeconds: 3600, maxCommands: 10_000, maxModelCalls: 10_000 };
const BATCH_CAP_USD = 100;

type Mode = { key: string; name: string; start: (stack: StackProcess, n: number) => Promise<string[]> };
type Sample = {
  id: string;
  wallMs: number;
  calls: number;
  /** startedAt → the first llm_call event: a run of a capped batch that waits for its share waits here. */
  firstCallMs: number;
  status: string;
  solved: number;
  costUsd: number;
};

const fake = await startFakeOpenAi();
fake.respond(baselineResponder({ pieceDelayMs: 0, persona: 'Quick' }));
const model = { name: 'mini', price: { input: 0.15, output: 0.6 } };
const providers = { providers: [{ name: 'quick', baseUrl: fake.baseUrl, maxConcurrent: 8, models: [model] }] };

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

// Single runs are hands-off like a batch's (onPause "stop"), so the four modes differ only in caps and batch.
const single = (caps: object) => async (stack: StackProcess, n: number) =>
  Promise.all(
    Array.from({ length: n }, async () => {
      const run = await post<RunSummary>(stack, '/api/runs', { model: MODEL, ...LEVELS, onPause: 'stop', ...caps });
      return run.id;
    }),
  );
const batch = (cap: object) => async (stack: StackProcess, n: number) => {
  const made = await post<{ runs: { id: string }[] }>(stack, '/api/batches', {
    models: [MODEL],
    ...LEVELS,
    repeats: n,
    onPause: 'stop',
    ...cap,
  });
  return made.runs.map((r) => r.id);
};
const MODES: Mode[] = [
  { key: 'runs', name: '(1) runs, no caps', start: single({}) },
  { key: 'capped', name: '(2) runs, generous caps', start: single({ caps: RUN_CAPS }) },
  { key: 'batch', name: '(3) batch, no cap', start: batch({}) },
  { key: 'batch-capped', name: '(4) batch, generous cap', start: batch({ maxCostUsd: BATCH_CAP_USD }) },
];

/** Every event of a run, page by page. */
async function eventsOf(stack: StackProcess, id: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (let since = 0; ; ) {
    const page = await get<{ events: RunEvent[]; nextSince: number | null }>(
      stack,
      `/api/runs/${id}/events?since=${since}&limit=1000`,
    );
    events.push(...page.events);
    if (page.nextSince === null || page.events.length === 0) return events;
    since = page.nextSince;
  }
}

/** Waits until every run has ended (polled twice a second), then reads each one's figures. */
async function finish(stack: StackProcess, ids: string[]): Promise<Sample[]> {
  const deadline = Date.now() + 5 * 60_000;
  let runs: RunSummary[] = [];
  for (;;) {
    runs = await Promise.all(ids.map((id) => get<RunSummary>(stack, `/api/runs/${id}`)));
    if (runs.every((r) => r.endedAt !== null)) break;
    if (Date.now() > deadline) throw new Error(`runs still going after 5 minutes: ${ids.join(', ')}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return Promise.all(
    runs.map(async (run) => {
      const calls = (await eventsOf(stack, run.id)).filter((e) => e.type === 'llm_call');
      const startedAt = Date.parse(run.startedAt ?? '');
      return {
        id: run.id,
        wallMs: Date.parse(run.endedAt ?? '') - startedAt,
        calls: calls.length,
        firstCallMs: calls[0] ? Date.parse(calls[0].ts) - startedAt : Number.NaN,
        status: run.status,
        solved: run.levelsSolved,
        costUsd: calls.reduce((sum, e) => sum + (e.costUsd ?? 0), 0),
      };
    }),
  );
}

/** Median and p90 of GET /api/runs/:id for each run given, the requests taken in turn so drift hits each alike. */
async function timeSummaries(stack: StackProcess, ids: Record<string, string>): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(ids).map((k) => [k, []]));
  for (let i = 0; i < GETS; i++)
    for (const [key, id] of Object.entries(ids)) {
      const t0 = performance.now();
      const response = await fetch(`${stack.url}/api/runs/${id}`);
      await response.arrayBuffer();
      times[key]!.push(performance.now() - t0);
    }
  return times;
}

const ms = (n: number, digits = 0) => `${n.toFixed(digits)} ms`.padStart(9);
const delta = (n: number, base: number, digits = 0) =>
  `${n - base >= 0 ? '+' : ''}${(n - base).toFixed(digits)} ms (${n - base >= 0 ? '+' : ''}${((100 * (n - base)) / base).toFixed(1)}%)`;

console.log(`bench/budget (${new Date().toISOString()})`);
console.log(
  `  ${RUNS} runs per mode, levels 0–12 of ${MODEL} ($0.15/$0.60 per Mtok, a fake endpoint streaming with no delay);`,
);
console.log(
  `  ${AT_ONCE} at a time: the modes take turns, one group of ${AT_ONCE} (runs made together, or one batch of ${AT_ONCE}) on the stack at once`,
);
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-bench-budget-'));
const began = Date.now();
const stack = await startStackProcess(stateDir, undefined, { PROVIDERS: JSON.stringify(providers) });
try {
  console.log(`  stack ready in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  const samples: Record<string, Sample[]> = Object.fromEntries(MODES.map((m) => [m.key, []]));
  // A warm-up group, not counted: the first runs pay for workerd compiling and the range's first logins.
  await finish(stack, await MODES[0]!.start(stack, AT_ONCE));
  const rounds = Math.ceil(RUNS / AT_ONCE);
  for (let round = 0; round < rounds; round++) {
    // The order turns each round, so no mode always goes first after the range has been idle.
    for (let k = 0; k < MODES.length; k++) {
      const mode = MODES[(round + k) % MODES.length]!;
      const n = Math.min(AT_ONCE, RUNS - round * AT_ONCE);
      samples[mode.key]!.push(...(await finish(stack, await mode.start(stack, n))));
    }
    process.stdout.write(`  round ${round + 1}/${rounds} done at ${((Date.now() - began) / 1000).toFixed(0)} s\n`);
  }

  console.log('');
  console.log(
    `  ${'mode'.padEnd(26)} ${'runs'.padStart(4)}  ${'calls'.padStart(5)}  ${'wall p50'.padStart(9)} ${'p90'.padStart(9)}  ${'/call p50'.padStart(9)} ${'p90'.padStart(9)}  vs   wall p50 diff          /call p50 diff`,
  );
  const perCall = (s: Sample[]) => s.map((x) => x.wallMs / Math.max(1, x.calls));
  for (const [i, mode] of MODES.entries()) {
    const s = samples[mode.key]!;
    const wall = s.map((x) => x.wallMs);
    const base = i % 2 === 1 ? samples[MODES[i - 1]!.key]! : null;
    const vs = base
      ? `(${i})  ${delta(median(wall), median(base.map((x) => x.wallMs))).padEnd(22)} ${delta(median(perCall(s)), median(perCall(base)), 1)}`
      : '';
    console.log(
      `  ${mode.name.padEnd(26)} ${String(s.length).padStart(4)}  ${String(median(s.map((x) => x.calls))).padStart(5)}  ${ms(median(wall))} ${ms(percentile(wall, 90))}  ${ms(median(perCall(s)), 1)} ${ms(percentile(perCall(s), 90), 1)}  ${vs}`,
    );
  }
  console.log("  (calls: the median llm_call count of a run; /call: a run's wall time over its llm_call count)");
  for (const mode of MODES) {
    const s = samples[mode.key]!;
    const counts = new Map<string, number>();
    for (const x of s)
      counts.set(`${x.status}, ${x.solved} solved`, (counts.get(`${x.status}, ${x.solved} solved`) ?? 0) + 1);
    const statuses = [...counts].map(([k, v]) => `${v}× ${k}`).join('; ');
    const cost = Math.max(...s.map((x) => x.costUsd));
    const first = s.map((x) => x.firstCallMs);
    console.log(
      `  ${mode.name.padEnd(26)} ${statuses}; at most $${cost.toFixed(5)} a run; first model call ${median(first).toFixed(0)} ms after the start (p50), ${Math.max(...first).toFixed(0)} ms (max)`,
    );
  }

  // GET /api/runs/:id on one ended run of each mode; a capped batch's run asks the queue for the batch's spend.
  const times = await timeSummaries(
    stack,
    Object.fromEntries(MODES.map((m) => [m.key, samples[m.key]![0]!.id])) as Record<string, string>,
  );
  console.log('');
  console.log(`  GET /api/runs/:id of an ended run, ${GETS} each, taken in turn:`);
  const baseGet = median(times.runs!);
  for (const mode of MODES) {
    const t = times[mode.key]!;
    const vs =
      mode.key === 'runs'
        ? ''
        : `  vs (1) ${(median(t) - baseGet >= 0 ? '+' : '') + (median(t) - baseGet).toFixed(2)} ms`;
    console.log(
      `  ${mode.name.padEnd(26)} p50 ${median(t).toFixed(2).padStart(6)} ms  p90 ${percentile(t, 90).toFixed(2).padStart(6)} ms${vs}`,
    );
  }
  console.log(`  whole bench ${((Date.now() - began) / 1000).toFixed(0)} s`);
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
  await fake.close();
}
