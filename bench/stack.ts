// bench/stack: the whole stack as `npm start` runs it (wrangler dev with the Durable Objects and D1,
// the proxy, the range), driven over REST and watched over WebSockets from this process.
// Measures: N concurrent baseline runs from level 0 to their first pause; the platform's time per
// agent cycle against the same SSH work done raw over the same loopback; proxy → client event latency
// with 1 and 50 watchers; the rate one run sustains; the replay of 10,000 stored events to a new client. Prints a table and
// asserts nothing. Usage: node bench/stack.ts [--runs 1,10,50] [--watchers 50] [--replay 10000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunEvent } from '../schema/protocol.ts';
import type { RunConfigInput, RunSummary } from '../schema/run.ts';
import { startFakeOpenAi, textReply, toolCall } from '../test/support/fake-openai.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import { nodeLatencies, wallNow, watchRun } from './run-watcher.ts';
import { connectClient, exec } from './ssh-timing.ts';
import { median, percentile } from './stats.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1,10,50' }, watchers: { type: 'string', default: '50' }, replay: { type: 'string', default: '10000' } } });
const ROUNDS = values.runs.split(',').map(Number);
const WATCHERS = Number(values.watchers);
const REPLAY = Number(values.replay);
/** A model served by a fake OpenAI endpoint in this process: it runs a new command every turn, fast. */
const FILL_MODEL = 'bench-fill';

const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';
const isPause = (e: RunEvent) => e.type === 'user_action_required' || e.type === 'run_complete';
const ms = (n: number) => `${n.toFixed(1)} ms`;

let commandNo = 0;
const fake = await startFakeOpenAi();
fake.respond((request) => (request.tools ? toolCall('run_command', { command: `echo bench ${++commandNo}` }) : textReply('- Try another command.')));
Object.assign(process.env, { OPENAI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: 'sk-bench', OPENAI_MODELS: FILL_MODEL });
const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-bench-'));
const stack = await startStackProcess(stateDir);

async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
const createRun = (config: RunConfigInput) => api<RunSummary>('/api/runs', config);
const act = (runId: string, action: unknown) => api<RunSummary>(`/api/runs/${runId}/actions`, action);

type Played = { run: RunSummary; ms: number; events: RunEvent[]; last: RunEvent };

/** One baseline run from its creation to its first pause, watched from the start. */
async function playToPause(): Promise<Played> {
  const started = wallNow();
  const run = await createRun({ maxRetries: 1 });
  const watcher = await watchRun(stack.url, run.id, 0, isPause);
  const last = await watcher.reached;
  const elapsed = wallNow() - started;
  watcher.close();
  return { run, ms: elapsed, events: watcher.events, last };
}

/** What went wrong in a played run: error events, or an end other than the max_retries pause. */
function problems(played: Played): string[] {
  const found = played.events.filter((e) => e.type === 'error').map((e) => `${e.code}: ${e.message}`);
  if (played.last.type !== 'user_action_required' || played.last.reason !== 'max_retries') found.push(`ended with ${JSON.stringify(played.last)}`);
  return found;
}

/** The SSH work a played run needed, done directly: log in to each level, run its commands. */
async function rawReplay(events: RunEvent[]): Promise<number> {
  const started = wallNow();
  let password = 'bandit0';
  for (let level = 0; ; level++) {
    const client = await connectClient(stack.ports.practice, `bandit${level}`, password);
    for (const e of events) if (e.type === 'command' && e.level === level) await exec(client, e.command);
    client.end();
    const solved = events.some((e) => e.type === 'level_complete' && e.level === level);
    const found = events.findLast((e) => e.type === 'password_found' && e.level === level);
    if (!solved || found?.type !== 'password_found') break;
    password = found.password;
  }
  return wallNow() - started;
}

const rows: string[][] = [];
const row = (...cells: string[]) => rows.push(cells);

try {
  // Warm-up: one run, so that the worker's and the proxy's code paths are compiled.
  const warm = await playToPause();
  await act(warm.run.id, { action: 'stop' });

  // 1. N runs at once, from creation to their first pause.
  for (const n of ROUNDS) {
    const started = wallNow();
    const settled = await Promise.allSettled(Array.from({ length: n }, playToPause));
    const wall = wallNow() - started;
    const played = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const errors = [...settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])), ...played.flatMap(problems)];
    const commands = played.reduce((sum, p) => sum + p.events.filter((e) => e.type === 'command').length, 0);
    const solved = played.map((p) => p.events.filter((e) => e.type === 'level_complete').length);
    const times = played.map((p) => p.ms);
    row(`${n} concurrent baseline runs, 0 → first pause`, `wall ${(wall / 1000).toFixed(2)} s; per run p50 ${(median(times) / 1000).toFixed(2)} s, max ${(Math.max(...times) / 1000).toFixed(2)} s`);
    row(`  levels solved per run / commands / errors`, `${Math.min(...solved)}–${Math.max(...solved)} / ${commands} (${(commands / (wall / 1000)).toFixed(0)} per s) / ${errors.length}${errors.length ? ` (first: ${errors[0]})` : ''}`);
    await Promise.all(played.map((p) => act(p.run.id, { action: 'stop' })));
  }

  // 2. Platform time per agent cycle against the same SSH work done raw, on the same loopback. Three
  // single runs and three raw replays of what they did; medians.
  const singles: Played[] = [];
  const raws: number[] = [];
  for (let i = 0; i < 3; i++) {
    const played = await playToPause();
    await act(played.run.id, { action: 'stop' });
    singles.push(played);
    raws.push(await rawReplay(played.events));
  }
  const cycles = singles[0]!.events.filter((e) => e.type === 'command').length;
  const platform = median(singles.map((p) => p.ms));
  const raw = median(raws);
  row(`one run, 0 → first pause (${cycles} commands): platform vs raw ssh`, `${ms(platform)} vs ${ms(raw)}: ${(platform / cycles).toFixed(2)} vs ${(raw / cycles).toFixed(2)} ms per cycle, **${(platform / raw).toFixed(2)}×**`);

  // 3. Delivery latency, proxy → socket. Baseline runs paused at level 13 are continued with a hint
  // while W watchers listen live; each then plays levels 13–15 at full speed and pauses again.
  for (const [watchers, runs] of [[1, 10], [WATCHERS, 4]] as const) {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const played = await playToPause();
      const live = await Promise.all(Array.from({ length: watchers }, () => watchRun(stack.url, played.run.id, played.last.seq, isPause)));
      await act(played.run.id, { action: 'continue', hint: HINT });
      await Promise.all(live.map((w) => w.reached));
      live.forEach((w) => w.close());
      samples.push(...live.flatMap(nodeLatencies));
      await act(played.run.id, { action: 'stop' });
    }
    row(`event latency proxy → socket, ${watchers} watcher${watchers > 1 ? 's' : ''} (${samples.length} node events)`, `p50 ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))}, max ${ms(Math.max(...samples))}`);
  }

  // 4. A run that plays as fast as it can (an instant model running a new command every turn) until
  // it has REPLAY events: how many steps per second one run sustains through the whole stack.
  const fill = await createRun({ model: FILL_MODEL, maxRetries: 10, budget: 100 });
  const fillStarted = wallNow();
  let lastSeq = 0;
  let fillCommands = 0;
  for (let since = 0; lastSeq < REPLAY; since = lastSeq) {
    const watcher = await watchRun(stack.url, fill.id, since, isPause);
    if (since > 0) await act(fill.id, { action: 'continue' });
    lastSeq = (await watcher.reached).seq;
    fillCommands += watcher.events.filter((e) => e.type === 'command').length;
    watcher.close();
  }
  const fillSeconds = (wallNow() - fillStarted) / 1000;
  row(`one run with an instant model: sustained rate`, `${(lastSeq / fillSeconds).toFixed(0)} events/s, ${(fillCommands / fillSeconds).toFixed(0)} commands/s (${lastSeq} events in ${fillSeconds.toFixed(1)} s)`);

  // 5. Replay: a new client asks for everything since 0; time until the REPLAY-th event arrives.
  const replays: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = wallNow();
    const watcher = await watchRun(stack.url, fill.id, 0, (e) => e.seq === REPLAY);
    await watcher.reached;
    replays.push(wallNow() - started);
    watcher.close();
  }
  row(`replay of ${REPLAY} stored events to a new client (of ${lastSeq})`, `median ${ms(median(replays))}, runs ${replays.map((r) => r.toFixed(0)).join(' / ')} ms`);
  await act(fill.id, { action: 'stop' });

  console.log(`bench/stack — wrangler dev, proxy and range on loopback; ${new Date().toISOString()}`);
  console.log('| measure | value |');
  console.log('|---|---|');
  for (const [measure, value] of rows) console.log(`| ${measure} | ${value} |`);
  console.log('targets: overhead ≤ 1.3×, p99 ≤ 20 ms at 50 watchers, 50 concurrent runs with no errors, replay ≤ 0.5 s');
} finally {
  await stack.stop();
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
}
