// bench/stack: the whole stack as `npm start` runs it (the worker through wrangler with the Durable Objects and D1,
// the proxy, the range), driven over REST and watched over WebSockets from this process. Each target
// of docs/benchmarks.md is measured side by side with what it is compared to, and printed as a ratio:
// platform time per agent cycle against the same SSH work done raw; p99 delivery at 1, 10 and 50
// watchers; the rate one run sustains; N runs at once to their first pause, with each process's peak
// memory and the proxy alone at the same concurrency; the replay of stored events. Asserts nothing.
// Usage: node bench/stack.ts [--sections concurrent,overhead,watchers,rate,replay,scale] [--runs 1,10,50]
//   [--scale 500] [--watchers 1,10,50] [--rounds 5] [--repeat 5] [--replay 10000] [--profile DIR] [--state DIR]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunEvent } from '../schema/protocol.ts';
import type { RunConfigInput, RunSummary } from '../schema/run.ts';
import { advanceBody, advanceUntilSettled } from '../test/support/advance-client.ts';
import { startFakeOpenAi, textReply, toolCall } from '../test/support/fake-openai.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import { scaleSection } from './stack-scale.ts';
import { stackApi } from './stack-api.ts';
import { freePort } from '../test/support/free-port.ts';
import { coresBetween, cpuSeconds } from './process-usage.ts';
import { nodeLatencies, wallNow, watchRun } from './run-watcher.ts';
import { connectClient, exec } from './ssh-timing.ts';
import { median, percentile } from './stats.ts';
import { profileWorker } from './worker-profiler.ts';

const { values } = parseArgs({
  options: {
    sections: { type: 'string', default: 'concurrent,overhead,watchers,rate,replay,scale' },
    runs: { type: 'string', default: '1,10,50' },
    scale: { type: 'string', default: '500' },
    watchers: { type: 'string', default: '1,10,50' },
    repeat: { type: 'string', default: '5' },
    replay: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    profile: { type: 'string' },
    // Where the stack keeps its state (D1, the objects' SQLite); /dev/shm takes the disk's fsyncs out of the figures.
    state: { type: 'string' },
  },
});
const SECTIONS = new Set(values.sections.split(','));
const numbers = (list: string) => list.split(',').map(Number);
const REPEAT = Number(values.repeat);
const ROUNDS = Number(values.rounds);
const REPLAY = Number(values.replay);
const SCALE = Number(values.scale);
/** A model served by a fake OpenAI endpoint in this process: it runs a new command every turn, fast. */
const FILL_MODEL = 'bench-fill';
const SECRET = 'bench-proxy-secret-0123456789';

const HINT = 'the key logs you in: `ssh -i sshkey.private bandit14@localhost cat /etc/bandit_pass/bandit14`';
const isPause = (e: RunEvent) => e.type === 'user_action_required' || e.type === 'run_complete';
/** Only a message that may hold a pause is parsed as it arrives; the rest when the figures are read. */
const mayPause = (text: string) => text.includes('"user_action_required"') || text.includes('"run_complete"');
const ms = (n: number) => `${n.toFixed(1)} ms`;

let commandNo = 0;
const fake = await startFakeOpenAi();
const offers = (tools: unknown[] | undefined, name: string) =>
  tools?.some((t) => (t as { function?: { name?: string } }).function?.name === name) ?? false;
// Answers each call the way the agent asked: the final attempt's plan too, or the proxy would retry
// the malformed answer with its backoff (seconds) at every pause and the rate would measure that.
fake.respond((request) =>
  offers(request.tools, 'final_commands')
    ? toolCall('final_commands', { commands: ['echo bench final'] })
    : request.tools
      ? toolCall('run_command', { command: `echo bench ${++commandNo}` })
      : textReply('- Try another command.'),
);
const stateDir = mkdtempSync(join(values.state ?? tmpdir(), 'bandit-runner-bench-'));
// The worker's inspector only when profiling: it also brings wrangler's relay back in front of the
// worker (see scripts/worker-dev.ts), so a profiled run is not the stack `npm start` runs.
const inspectorPort = values.profile ? await freePort() : null;
if (values.profile) mkdirSync(values.profile, { recursive: true });
const stack = await startStackProcess(stateDir, undefined, {
  OPENAI_BASE_URL: fake.baseUrl,
  OPENAI_API_KEY: 'sk-bench',
  OPENAI_MODELS: FILL_MODEL,
  PROXY_SECRET: SECRET,
  // Every run of the scale section at once, each holding an SSH connection to the range.
  MAX_RUNNING_RUNS: String(Math.max(SCALE, 50)),
  // The scale section creates its runs in one burst, past the default creation limit per client.
  RUN_CREATE_BURST: String(2 * SCALE + 100),
  // Every login comes from the proxy's one address. At the proxy-alone half's peak it holds the stack half's
  // sessions (kept for SSH_IDLE_MS after each run paused), the alone half's, and a second login per run that
  // proves a password: past 2 × SCALE the range refused logins ("Connection lost before handshake", 644 errors
  // in that half at 500), so that half stopped early and did less work than the stack's.
  PRACTICE_MAX_CONNECTIONS: String(4 * SCALE + 100),
  PRACTICE_MAX_CONNECTIONS_PER_ADDRESS: String(4 * SCALE + 100),
  // Hundreds of logins at once take the range longer than its default 30 s to answer each.
  PRACTICE_AUTH_TIMEOUT_MS: '180000',
  ...(inspectorPort ? { WORKER_INSPECTOR_PORT: String(inspectorPort) } : {}),
  ...(values.profile ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${values.profile}` } : {}),
});

/** The stack's proxy, called straight from here: the same work without the worker, for comparison. */
const proxyAlone = { proxyUrl: `http://127.0.0.1:${stack.ports.proxy}`, proxySecret: SECRET };

const api = stackApi(stack.url);
const createRun = (config: RunConfigInput) => api<RunSummary>('/api/runs', config);
const act = (runId: string, action: unknown) => api<RunSummary>(`/api/runs/${runId}/actions`, action);

type Played = { run: RunSummary; ms: number; events: RunEvent[]; last: RunEvent };

/** One baseline run from its creation to its first pause, watched from the start. */
async function playToPause(): Promise<Played> {
  const started = wallNow();
  const run = await createRun({ maxRetries: 1 });
  const watcher = await watchRun(stack.url, run.id, 0, isPause, mayPause);
  const last = await watcher.reached;
  const elapsed = wallNow() - started;
  watcher.close();
  return { run, ms: elapsed, events: watcher.events, last };
}

/** What went wrong in a run: error events, or an end other than the max_retries pause. */
function problems(events: RunEvent[]): string[] {
  const found = events.filter((e) => e.type === 'error').map((e) => `${e.code}: ${e.message}`);
  const last = events.findLast(isPause);
  if (last?.type !== 'user_action_required' || last.reason !== 'max_retries')
    found.push(`ended with ${JSON.stringify(last ?? null)}`);
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

/** CPU used so far by each program of the stack and by this process (the watchers' client and the fake model). */
function cpuNow(): { at: number; used: Map<string, number> } {
  const used = cpuSeconds(stack.pid);
  const self = process.cpuUsage();
  used.set('bench client', (self.user + self.system) / 1e6);
  return { at: wallNow(), used };
}
const coresSince = (from: ReturnType<typeof cpuNow>) => {
  const to = cpuNow();
  return coresBetween(from.used, to.used, (to.at - from.at) / 1000);
};

const rows: string[][] = [];
const row = (...cells: string[]) => {
  rows.push(cells);
  console.error(`  ${cells.join(': ')}`);
};
const verdict = (ok: boolean) => (ok ? '✓' : '✗');

/** N runs created at once and watched from their start to their first pause. */
async function concurrent(n: number): Promise<void> {
  const started = wallNow();
  const settled = await Promise.allSettled(Array.from({ length: n }, playToPause));
  const wall = wallNow() - started;
  const played = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const errors = [
    ...settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : [])),
    ...played.flatMap((p) => problems(p.events)),
  ];
  const commands = played.reduce((sum, p) => sum + p.events.filter((e) => e.type === 'command').length, 0);
  row(
    `${n} concurrent baseline runs, 0 → first pause`,
    `wall ${(wall / 1000).toFixed(2)} s; per run p50 ${(median(played.map((p) => p.ms)) / 1000).toFixed(2)} s; ${commands} commands (${(commands / (wall / 1000)).toFixed(0)}/s); errors ${errors.length}${errors.length ? ` (first: ${errors[0]})` : ''}`,
  );
  await Promise.all(played.map((p) => act(p.run.id, { action: 'stop' })));
}

/** Platform time per agent cycle against the same SSH work done raw, on the same loopback; medians. */
async function overhead(): Promise<void> {
  const platform: number[] = [];
  const raw: number[] = [];
  let cycles = 0;
  for (let i = 0; i < REPEAT; i++) {
    const played = await playToPause();
    await act(played.run.id, { action: 'stop' });
    cycles = played.events.filter((e) => e.type === 'command').length;
    platform.push(played.ms);
    raw.push(await rawReplay(played.events));
  }
  const ratio = median(platform) / median(raw);
  row(
    `platform vs raw ssh, one run 0 → first pause (${cycles} commands, median of ${REPEAT})`,
    `${ms(median(platform))} vs ${ms(median(raw))}: ${(median(platform) / cycles).toFixed(2)} vs ${(median(raw) / cycles).toFixed(2)} ms per cycle, **${ratio.toFixed(2)}×** (target ≤ 1.3× ${verdict(ratio <= 1.3)}; runs ${platform.map((p) => p.toFixed(0)).join('/')} vs ${raw.map((r) => r.toFixed(0)).join('/')} ms)`,
  );
}

/** One paused baseline run continued while W sockets listen live; the proxy → socket latency of each node event at each socket. */
async function watchedContinue(w: number): Promise<number[]> {
  const played = await playToPause();
  const live = await Promise.all(
    Array.from({ length: w }, () => watchRun(stack.url, played.run.id, played.last.seq, isPause, mayPause)),
  );
  await act(played.run.id, { action: 'continue', hint: HINT });
  await Promise.all(live.map((x) => x.reached));
  live.forEach((x) => x.close());
  await act(played.run.id, { action: 'stop' });
  return live.flatMap(nodeLatencies);
}

/**
 * Delivery latency at 1, 10 and 50 watchers. One figure of p99 is at the mercy of what else the two
 * cores were doing, so the counts take turns for ROUNDS rounds: each round gives a ratio, and the
 * samples of every round are pooled for the percentiles.
 */
async function watchers(): Promise<void> {
  const counts = numbers(values.watchers);
  const pooled = new Map<number, number[]>(counts.map((w) => [w, []]));
  const cores = new Map<number, string[]>(counts.map((w) => [w, []]));
  const roundRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const p99 = new Map<number, number>();
    for (const w of counts) {
      const cpu = cpuNow();
      const samples: number[] = [];
      for (let i = 0; i < (w === 1 ? 10 : w <= 10 ? 6 : 4); i++) samples.push(...(await watchedContinue(w)));
      cores.get(w)!.push(coresSince(cpu));
      pooled.get(w)!.push(...samples);
      p99.set(w, percentile(samples, 99));
    }
    roundRatios.push(p99.get(counts.at(-1)!)! / p99.get(counts[0]!)!);
  }
  // The verdict goes on the median of the rounds' ratios: a pooled p99 at one watcher rests on a
  // handful of samples, and one stall there would pass or fail the target on its own.
  const ratio = median(roundRatios);
  const base = percentile(pooled.get(counts[0]!)!, 99);
  for (const w of counts) {
    const samples = pooled.get(w)!;
    const pooledRatio = percentile(samples, 99) / base;
    const last = w === counts.at(-1) && w !== counts[0];
    const versus =
      w === counts[0]
        ? ''
        : last
          ? `; **${ratio.toFixed(2)}×** p99 at ${counts[0]}, the median of the rounds' ${roundRatios.map((r) => r.toFixed(2)).join(' / ')}× (target ≤ 3× ${verdict(ratio <= 3)}); pooled ${pooledRatio.toFixed(2)}×`
          : `, pooled ${pooledRatio.toFixed(2)}× p99 at ${counts[0]}`;
    row(
      `delivery proxy → socket, ${w} watcher${w > 1 ? 's' : ''} (${samples.length} node events, ${ROUNDS} rounds)`,
      `p50 ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))}${versus}; cores busy in round 1: ${cores.get(w)![0]}`,
    );
  }
}

/** Events per second while `play` runs, with the cores each program used meanwhile. */
async function timed(play: () => Promise<number>): Promise<{ events: number; perSecond: number; cores: string }> {
  const cpu = cpuNow();
  const started = wallNow();
  const events = await play();
  const perSecond = events / ((wallNow() - started) / 1000);
  return { events, perSecond, cores: coresSince(cpu) };
}

/**
 * One run with an instant model played until it has REPLAY events; returns its id. The same run
 * through the proxy alone, on the same range, is the ceiling: what the shell and the model cost
 * before the platform adds anything.
 */
async function rate(): Promise<string> {
  const config = { model: FILL_MODEL, maxRetries: 10, budget: 100 };
  // The run pauses at each max_retries and the bench continues it, as a person would. The rate counts the
  // time the run was running: from its creation, or a continue sent, to the pause's event. The bench's own
  // reaction between the two (a socket opened, the action sent) is a person's time, not the platform's,
  // and the proxy-alone half has none (it plays to its first pause), so it is left out; the wall clock with
  // it is printed beside.
  const cpu = cpuNow();
  const started = wallNow();
  let runningMs = 0;
  let pauses = 0;
  let lastSeq = 0;
  let fillId = '';
  const stretches: { events: number; ms: number }[] = [];
  for (let since = 0; lastSeq < REPLAY; since = lastSeq) {
    let segmentStart: number;
    let watcher: Awaited<ReturnType<typeof watchRun>>;
    if (since === 0) {
      segmentStart = wallNow();
      fillId = (await createRun(config)).id;
      watcher = await watchRun(stack.url, fillId, 0, isPause, mayPause);
    } else {
      watcher = await watchRun(stack.url, fillId, since, isPause, mayPause);
      segmentStart = wallNow();
      await act(fillId, { action: 'continue' });
      pauses++;
    }
    const reached = (await watcher.reached).seq;
    stretches.push({ events: reached - lastSeq, ms: wallNow() - segmentStart });
    lastSeq = reached;
    runningMs += wallNow() - segmentStart;
    watcher.close();
  }
  const wallMs = wallNow() - started;
  const stacked = { events: lastSeq, perSecond: lastSeq / (runningMs / 1000), cores: coresSince(cpu) };
  const alone = await timed(async () => {
    const replies = await advanceUntilSettled(proxyAlone, {
      ...advanceBody('run_ratealone000000000000000', config),
      checkpointPatches: true,
    });
    return replies.reduce((n, r) => n + r.events.length, 0);
  });
  const ratio = stacked.perSecond / alone.perSecond;
  row(
    `one run with an instant model: sustained rate (${stacked.events} events, ${pauses} pauses continued)`,
    `**${stacked.perSecond.toFixed(0)} events/s** while running (target ≥ 2,000 ${verdict(stacked.perSecond >= 2000)}); ${(stacked.events / (wallMs / 1000)).toFixed(0)}/s with the bench's continues; cores busy: ${stacked.cores}`,
  );
  // Each stretch between pauses on its own: the proxy-alone half plays the first one only.
  row(
    'the same run, each stretch between pauses',
    stretches.map((g, i) => `${i + 1}: ${g.events} events at ${((g.events * 1000) / g.ms).toFixed(0)}/s`).join('; '),
  );
  row(
    `the same run through the proxy alone, to its first pause (${alone.events} events)`,
    `${alone.perSecond.toFixed(0)} events/s, the ceiling the range and the model set on this machine; the stack reaches **${ratio.toFixed(2)}×** of it (target ≥ 0.9× ${verdict(ratio >= 0.9)}); cores busy: ${alone.cores}`,
  );
  return fillId;
}

/** A new client asks for everything since 0; time until the REPLAY-th event arrives. Median of 3. */
async function replay(runId: string): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = wallNow();
    const watcher = await watchRun(stack.url, runId, 0, (e) => e.seq === REPLAY);
    await watcher.reached;
    times.push(wallNow() - started);
    watcher.close();
  }
  row(
    `replay of ${REPLAY} stored events to a new client`,
    `median ${ms(median(times))} (${times.map((t) => t.toFixed(0)).join(' / ')} ms)`,
  );
}

try {
  // Warm-up: one run, so that the worker's and the proxy's code paths are compiled.
  const warm = await playToPause();
  await act(warm.run.id, { action: 'stop' });
  const worker = inspectorPort ? await profileWorker(inspectorPort) : null;
  if (SECTIONS.has('concurrent')) for (const n of numbers(values.runs)) await concurrent(n);
  if (SECTIONS.has('overhead')) await overhead();
  if (SECTIONS.has('watchers')) await watchers();
  const fillId = SECTIONS.has('rate') || SECTIONS.has('replay') ? await rate() : null;
  if (fillId && SECTIONS.has('replay')) await replay(fillId);
  if (fillId) await act(fillId, { action: 'stop' });
  if (worker)
    console.error(`worker profiles: ${(await worker.stop(join(values.profile!, `stack-${Date.now()}`))).join(', ')}`);
  if (SECTIONS.has('scale'))
    await scaleSection({ scale: SCALE, pid: stack.pid, api, proxyAlone, row, problems, isPause, cpuNow, coresSince });

  console.log(
    `bench/stack — the worker (${inspectorPort ? "wrangler's relay and inspector, for --profile" : 'behind scripts/worker-front.ts, as npm start runs it'}), proxy and range on loopback; ${new Date().toISOString()}`,
  );
  console.log('| measure | value |');
  console.log('|---|---|');
  for (const [measure, value] of rows) console.log(`| ${measure} | ${value} |`);
} catch (err) {
  // What the stack said last is most of what explains a failed request.
  console.error(`the stack's last output:\n${stack.output().split('\n').slice(-40).join('\n')}`);
  throw err;
} finally {
  await stack.stop();
  await fake.close();
  rmSync(stateDir, { recursive: true, force: true });
}
