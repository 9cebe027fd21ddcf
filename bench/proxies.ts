// Proxies: the same batch of baseline runs through the whole stack with 1, 2 and 3 proxies (PROXIES=N,
// behind HAProxy from 2 on), as `npm start` runs them. Prints commands per second for each, the ratio to
// one proxy, and the cores each program used, so the scaling is read against this machine's cores.
// Usage: node bench/proxies.ts [--proxies 1,2,3] [--runs 100]. Asserts nothing. `npm run bench:proxies`.
import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRun, runEvents, waitSettled } from '../test/support/proxy-chaos.ts';
import { startStackProcess } from '../test/support/stack-process.ts';
import { coresBetween, cpuSeconds } from './process-usage.ts';

const { values } = parseArgs({
  options: { proxies: { type: 'string', default: '1,2,3' }, runs: { type: 'string', default: '100' } },
});
const RUNS = Number(values.runs);

/** RUNS baseline runs at once on a stack with `proxies` proxies, to their first pause. */
async function measure(proxies: number): Promise<{ perSecond: number; line: string }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-proxies-'));
  const stack = await startStackProcess(stateDir, undefined, {
    PROXIES: String(proxies),
    MAX_RUNNING_RUNS: String(RUNS),
    RUN_CREATE_BURST: String(RUNS + 50),
    PRACTICE_MAX_CONNECTIONS: String(2 * RUNS + 100),
    PRACTICE_MAX_CONNECTIONS_PER_ADDRESS: String(2 * RUNS + 100),
  });
  try {
    // A warm-up run, so each program's code paths are compiled before the clock starts.
    const warm = await createRun(stack, { maxRetries: 1, endLevel: 2 });
    await waitSettled(stack, [warm.id], 60_000);
    const before = cpuSeconds(stack.pid);
    const started = performance.now();
    const runs = await Promise.all(Array.from({ length: RUNS }, () => createRun(stack, { maxRetries: 1 })));
    const settled = await waitSettled(
      stack,
      runs.map((r) => r.id),
      900_000,
    );
    const seconds = (performance.now() - started) / 1000;
    const cores = coresBetween(before, cpuSeconds(stack.pid), seconds);
    let commands = 0;
    for (const run of runs) commands += (await runEvents(stack.url, run.id)).filter((e) => e.type === 'command').length;
    const paused = settled.filter((r) => r.status === 'paused_for_user_action').length;
    const perSecond = commands / seconds;
    return {
      perSecond,
      line: `${paused} of ${RUNS} paused in ${seconds.toFixed(1)} s; ${commands} commands (**${perSecond.toFixed(0)}/s**); cores busy: ${cores}`,
    };
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

console.log(`${RUNS} baseline runs at once, 0 → first pause, on ${cpus().length} cores (${cpus()[0]?.model ?? '?'})\n`);
console.log('| proxies | result | vs 1 proxy |');
console.log('|---|---|---|');
let one: number | null = null;
for (const proxies of values.proxies.split(',').map(Number)) {
  const { perSecond, line } = await measure(proxies);
  one ??= proxies === 1 ? perSecond : null;
  console.log(`| ${proxies} | ${line} | ${one ? `${(perSecond / one).toFixed(2)}×` : '—'} |`);
}
