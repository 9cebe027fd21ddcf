// Chaos: 50 baseline runs on the real stack with 3 proxies behind HAProxy (PROXIES=3), one proxy killed
// (SIGKILL) every few seconds; `npm start` starts each again. Every run must reach its pause with a log that
// has no gap, no repeat, no level solved twice, and no command run twice on the target (the range's own
// command log). Also prints how long the runs took to move again after each kill (recovery).
// Usage: node bench/chaos.ts [--runs 50] [--proxies 3] [--every 3000]. `npm run bench:chaos`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunEvent } from '../schema/protocol.ts';
import type { Kill } from '../test/support/proxy-chaos.ts';
import {
  auditRun,
  createRun,
  killProxyRepeatedly,
  readRangeLog,
  runEvents,
  waitSettled,
} from '../test/support/proxy-chaos.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import { median } from './stats.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    proxies: { type: 'string', default: '3' },
    every: { type: 'string', default: '3000' },
  },
});
const RUNS = Number(values.runs);
const PROXIES = Number(values.proxies);
const EVERY_MS = Number(values.every);

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-chaos-bench-'));
const commandLog = join(stateDir, 'range-commands.jsonl');
const stack = await startStackProcess(stateDir, undefined, {
  PROXIES: String(PROXIES),
  PRACTICE_COMMAND_LOG: commandLog,
  MAX_RUNNING_RUNS: String(RUNS),
  RUN_CREATE_BURST: String(RUNS + 50),
});

/**
 * Per kill: how long until every run that was moving at the kill stored an event again (the slowest of
 * them; a run on a surviving proxy moves on at once, one on the killed proxy waits for its retry).
 */
function recoveries(kills: Kill[], logs: RunEvent[][]): number[] {
  return kills.flatMap(({ at }) => {
    const waits = logs.flatMap((events) => {
      const times = events.map((e) => Date.parse(e.ts));
      const before = times.some((t) => t <= at && t > at - 1_000);
      const after = times.find((t) => t > at);
      return before && after !== undefined ? [after - at] : [];
    });
    return waits.length ? [Math.max(...waits)] : [];
  });
}

try {
  const started = Date.now();
  const runs = await Promise.all(
    Array.from({ length: RUNS }, () => createRun(stack, { maxRetries: 1, world: 'private' })),
  );
  let settled = false;
  const killing = killProxyRepeatedly(stack, {
    firstAfterMs: 300,
    everyMs: EVERY_MS,
    maxKills: 1_000,
    done: () => settled,
  });
  const summaries = await waitSettled(
    stack,
    runs.map((r) => r.id),
    600_000,
  );
  settled = true;
  const kills = await killing;
  const wall = (Date.now() - started) / 1000;
  const rangeLog = readRangeLog(commandLog);
  const audits = await Promise.all(summaries.map((run) => auditRun(stack, run, rangeLog)));
  const logs = await Promise.all(summaries.map((run) => runEvents(stack.url, run.id)));
  const recovered = recoveries(kills, logs);
  const sum = (f: (a: (typeof audits)[number]) => number) => audits.reduce((n, a) => n + f(a), 0);
  const paused = audits.filter((a) => a.status === 'paused_for_user_action' && a.pauses === 1).length;
  const atThirteen = audits.filter((a) => a.pausedAt === 13).length;
  const balancer = stack.output().match(/Server proxies\/proxy-\d is DOWN/g)?.length ?? 0;
  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| runs, proxies | ${RUNS} runs, ${PROXIES} proxies${PROXIES > 1 ? ' behind HAProxy' : ''} |`);
  console.log(`| proxy kills (SIGKILL, every ${EVERY_MS / 1000} s) | ${kills.length} |`);
  console.log(`| times the balancer's checks took a proxy out | ${balancer} |`);
  console.log(`| wall time to the last pause | ${wall.toFixed(1)} s |`);
  console.log(
    `| runs that reached their max-retries pause | ${paused} of ${RUNS} (${atThirteen} at level 13, as with no kill) |`,
  );
  console.log(`| events | ${sum((a) => a.events)} |`);
  console.log(`| events lost (gaps in seq) | ${sum((a) => a.gaps)} |`);
  console.log(`| events repeated | ${sum((a) => a.repeats)} |`);
  console.log(`| levels solved twice | ${sum((a) => a.levelsTwice)} |`);
  console.log(`| command ids twice in a log | ${sum((a) => a.commandsTwice)} |`);
  console.log(`| commands the range logged | ${sum((a) => a.target?.logged ?? 0)} |`);
  console.log(`| commands run twice on the target (range log) | ${sum((a) => a.target?.ranTwice ?? 0)} |`);
  console.log(`| commands answered but not in the range log | ${sum((a) => a.target?.unlogged ?? 0)} |`);
  console.log(`| commands reported lost with a killed proxy (then run anew) | ${sum((a) => a.target?.lost ?? 0)} |`);
  console.log(`| errors other than proxy_retry | ${sum((a) => a.otherErrors.length)} |`);
  console.log(
    `| recovery after a kill: until every moving run stored an event again | median ${median(recovered).toFixed(0)} ms, max ${Math.max(0, ...recovered).toFixed(0)} ms (${recovered.length} kills) |`,
  );
  const bad = audits.filter(
    (a) =>
      a.gaps ||
      a.repeats ||
      a.levelsTwice ||
      a.commandsTwice ||
      a.target?.ranTwice ||
      a.target?.unlogged ||
      a.otherErrors.length ||
      a.pauses !== 1,
  );
  if (paused !== RUNS || bad.length) {
    console.error(JSON.stringify(bad, null, 2));
    process.exitCode = 1;
  }
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
