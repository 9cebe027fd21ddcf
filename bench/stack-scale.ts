// bench/stack's "500 at once" section (--scale): SCALE baseline runs created at once through the stack, polled
// until none is left going, each run's log read for errors; then the same runs through the proxy alone, on the
// same proxy and range. Peak memory of each process is sampled meanwhile.
import type { RunEvent } from '../schema/protocol.ts';
import type { RunSummary } from '../schema/run.ts';
import type { AdvanceTarget } from '../test/support/advance-client.ts';
import { advanceBody, advanceUntilSettled } from '../test/support/advance-client.ts';
import { sampleMemory } from './process-usage.ts';
import { wallNow } from './run-watcher.ts';
import type { StackApi } from './stack-api.ts';

/** A mark of the CPU each program had used, for the cores they used since. */
type CpuMark = { at: number; used: Map<string, number> };

/** What the section needs of bench/stack: the stack, the proxy behind it, and how rows and problems are told. */
export type ScaleContext = {
  scale: number;
  /** The stack's process (its programs are its process group's). */
  pid: number;
  api: StackApi;
  proxyAlone: AdvanceTarget;
  row: (...cells: string[]) => void;
  problems: (events: RunEvent[]) => string[];
  isPause: (event: RunEvent) => boolean;
  cpuNow: () => CpuMark;
  coresSince: (from: CpuMark) => string;
};

const verdict = (ok: boolean) => (ok ? '✓' : '✗');
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

/** Whether a command was refused by the range's cap on commands waiting per address (issue 33), not run. */
const refusedByRange = (e: RunEvent) => e.type === 'output' && e.stderr.startsWith('practice range: too many commands');

/** The runs of ours still running or queued, read from D1's index: one query a poll, not one request per run. */
async function stillGoing(api: StackApi): Promise<number> {
  let going = 0;
  for (const status of ['running', 'queued'])
    going += (await api<{ runs: unknown[] }>(`/api/runs?status=${status}&limit=100`)).runs.length;
  return going;
}

/**
 * SCALE baseline runs at once through the stack, then the same through the proxy alone. workerd's memory per
 * active run is its peak less its RSS before the runs were made (after the warm-up), over SCALE. The cores each
 * program used in each half show what bounds the throughput on this machine.
 */
export async function scaleSection(c: ScaleContext): Promise<void> {
  const idle = sampleMemory(c.pid).stop();
  const memory = sampleMemory(c.pid);
  const cpu = c.cpuNow();
  const started = wallNow();
  const runs: RunSummary[] = [];
  for (let i = 0; i < c.scale; i += 50)
    runs.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, c.scale - i) }, () => c.api<RunSummary>('/api/runs', { maxRetries: 1 })),
      )),
    );
  // Polled from D1's index, which the objects mirror at the end of every proxy call: a request to each
  // of 500 objects every poll cost workerd as much CPU as a tenth of the runs did.
  for (const deadline = wallNow() + 900_000; wallNow() < deadline; await sleep(500))
    if ((await stillGoing(c.api)) === 0) break;
  const wall = wallNow() - started;
  const stackCores = c.coresSince(cpu);
  const peaks = memory.stop();
  let errors = 0;
  let commands = 0;
  let refused = 0;
  let paused = 0;
  let firstError = '';
  for (let i = 0; i < runs.length; i += 25) {
    const pages = await Promise.all(
      runs.slice(i, i + 25).map((r) => c.api<{ events: RunEvent[] }>(`/api/runs/${r.id}/events?limit=1000`)),
    );
    for (const page of pages) {
      const found = c.problems(page.events);
      errors += found.length;
      firstError ||= found[0] ?? '';
      commands += page.events.filter((e) => e.type === 'command').length;
      refused += page.events.filter(refusedByRange).length;
      if (page.events.some(c.isPause)) paused++;
    }
  }
  await Promise.all(runs.map((r) => c.api(`/api/runs/${r.id}/actions`, { action: 'stop' }).catch(() => undefined)));
  // The proxy alone, at the same concurrency, on the same range: its own time for the same work.
  const aloneCpu = c.cpuNow();
  const aloneStarted = wallNow();
  const alone = await Promise.all(
    Array.from({ length: c.scale }, (_, i) =>
      advanceUntilSettled(c.proxyAlone, advanceBody(`run_scale${String(i).padStart(20, '0')}`, { maxRetries: 1 })),
    ),
  );
  const aloneWall = wallNow() - aloneStarted;
  const aloneCores = c.coresSince(aloneCpu);
  const aloneCommands = alone.flat().reduce((n, r) => n + r.events.filter((e) => e.type === 'command').length, 0);
  const aloneEvents = alone.map((replies) => replies.flatMap((r) => r.events) as RunEvent[]);
  const aloneProblems = aloneEvents.flatMap(c.problems);
  const aloneRefused = aloneEvents.flat().filter(refusedByRange).length;
  const perSecond = commands / (wall / 1000);
  const alonePerSecond = aloneCommands / (aloneWall / 1000);
  const ratio = perSecond / alonePerSecond;
  c.row(
    `${c.scale} concurrent baseline runs through the stack, 0 → first pause`,
    `${paused} of ${c.scale} paused in ${(wall / 1000).toFixed(1)} s; ${commands} commands (**${perSecond.toFixed(0)}/s**, ${refused} refused by the range as too many waiting); errors **${errors}**${firstError ? ` (first: ${firstError})` : ''}; cores busy: ${stackCores}`,
  );
  c.row(
    `the proxy alone, same ${c.scale} runs at once`,
    `${(aloneWall / 1000).toFixed(1)} s; ${aloneCommands} commands (**${alonePerSecond.toFixed(0)}/s**, ${aloneRefused} refused by the range); errors ${aloneProblems.length}${aloneProblems.length ? ` (first: ${aloneProblems[0]})` : ''}; cores busy: ${aloneCores}`,
  );
  c.row(
    `stack throughput / proxy alone at ${c.scale} runs`,
    `**${ratio.toFixed(2)}×** (target ≥ 0.8× ${verdict(ratio >= 0.8)})`,
  );
  const workerd = { idle: idle.get('workerd') ?? 0, peak: peaks.get('workerd') ?? 0 };
  const perRun = (workerd.peak - workerd.idle) / c.scale;
  c.row(
    `workerd memory per active run (peak RSS less idle RSS, over ${c.scale})`,
    `(${workerd.peak.toFixed(0)} − ${workerd.idle.toFixed(0)} MiB) / ${c.scale} = **${perRun.toFixed(2)} MiB** (target ≤ 1.5 MiB ${verdict(perRun <= 1.5)})`,
  );
  c.row(
    `peak memory during the ${c.scale} runs (RSS; idle before them)`,
    [...peaks].map(([name, mib]) => `${name} ${mib.toFixed(0)} MiB (${(idle.get(name) ?? 0).toFixed(0)})`).join(', '),
  );
}
