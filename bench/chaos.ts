// Chaos: 50 baseline runs on the real stack with 3 proxies behind HAProxy (PROXIES=3), one proxy killed
// (SIGKILL) every few seconds; `npm start` starts each again. Every run must reach its pause with a log that
// has no gap, no repeat, no level solved twice, and no command run twice on the target (the range's own
// command log). Also prints how long each run a kill broke took to move again (recovery).
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
import { median, percentile } from './stats.ts';

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
 * Per run a kill broke (its call failed within 2 s of the kill: a `proxy_retry` error): the time from the
 * kill to the first event the run stored after that error, the retry's first step on another proxy.
 */
function recoveries(kills: Kill[], logs: RunEvent[][]): number[] {
  return kills.flatMap(({ at }) =>
    logs.flatMap((events) => {
      const broken = events.findIndex(
        (e) =>
          e.type === 'error' && e.code === 'proxy_retry' && Date.parse(e.ts) >= at && Date.parse(e.ts) < at + 2_000,
      );
      const next = broken < 0 ? undefined : events.slice(broken + 1).find((e) => e.type !== 'error');
      return next ? [Date.parse(next.ts) - at] : [];
    }),
  );
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
    `| recovery: from a kill to the next step of each run it broke (its retry, on another proxy) | median ${median(recovered).toFixed(0)} ms, p90 ${percentile(recovered, 90).toFixed(0)} ms, max ${Math.max(0, ...recovered).toFixed(0)} ms (${recovered.length} broken calls; the worker waits PROXY_RETRY_MS, 1 s, before a retry) |`,
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
