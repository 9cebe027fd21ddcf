// Chaos: 20 baseline runs on the real stack while its proxy is killed (SIGKILL) every few seconds.
// `npm start` starts the proxy again each time; every run must reach its pause with a log that has
// no gap, no repeat, no level solved twice and no command run twice. `npm run bench:chaos`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { auditRun, createRun, killProxyRepeatedly, waitSettled } from '../test/support/proxy-chaos.ts';
import { startStackProcess } from '../test/support/stack-process.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20' }, every: { type: 'string', default: '3000' } },
});
const RUNS = Number(values.runs);
const EVERY_MS = Number(values.every);

const stateDir = mkdtempSync(join(tmpdir(), 'bandit-runner-chaos-bench-'));
const stack = await startStackProcess(stateDir);
try {
  const started = Date.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, () => createRun(stack, { maxRetries: 1 })));
  let settled = false;
  const kills = killProxyRepeatedly(stack, {
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
  const killed = (await kills).length;
  const wall = (Date.now() - started) / 1000;
  const audits = await Promise.all(summaries.map((run) => auditRun(stack, run)));
  const sum = (f: (a: (typeof audits)[number]) => number) => audits.reduce((n, a) => n + f(a), 0);
  const paused = audits.filter((a) => a.status === 'paused_for_user_action' && a.pauses === 1).length;
  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| runs | ${RUNS} |`);
  console.log(`| proxy kills (SIGKILL, every ${EVERY_MS / 1000} s) | ${killed} |`);
  console.log(`| wall time to the last pause | ${wall.toFixed(1)} s |`);
  console.log(`| runs that reached their max-retries pause | ${paused} of ${RUNS} |`);
  console.log(`| events | ${sum((a) => a.events)} |`);
  console.log(`| events lost (gaps in seq) | ${sum((a) => a.gaps)} |`);
  console.log(`| events repeated | ${sum((a) => a.repeats)} |`);
  console.log(`| levels solved twice | ${sum((a) => a.levelsTwice)} |`);
  console.log(`| commands run twice | ${sum((a) => a.commandsTwice)} |`);
  console.log(`| errors other than proxy_retry | ${sum((a) => a.otherErrors.length)} |`);
  if (paused !== RUNS || sum((a) => a.gaps + a.repeats + a.levelsTwice + a.commandsTwice + a.otherErrors.length) > 0) {
    console.error(
      JSON.stringify(
        audits.filter(
          (a) => a.gaps || a.repeats || a.levelsTwice || a.commandsTwice || a.otherErrors.length || a.pauses !== 1,
        ),
        null,
        2,
      ),
    );
    process.exitCode = 1;
  }
} finally {
  await stack.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
