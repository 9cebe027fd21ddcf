// Runs baseline runs on a real stack while its proxy is killed (SIGKILL) again and again, and checks
// each run's log for what a kill could break: gaps, repeats, a level solved twice, a command run
// twice, an error other than a proxy retry. Shared by the e2e fault test and bench/chaos.ts.
import { readdirSync, readFileSync } from 'node:fs';
import type { RunEvent } from '../../schema/protocol.ts';
import type { RunSummary } from '../../schema/run.ts';
import type { StackProcess } from './stack-process.ts';

/** What one run's log shows after the chaos. */
export type RunAudit = {
  id: string;
  status: string;
  events: number;
  gaps: number;
  repeats: number;
  levelsTwice: number;
  commandsTwice: number;
  otherErrors: string[];
  pauses: number;
};

/** The pid of the stack's proxy: the child of `npm start` running ssh-proxy/main.ts. */
export function proxyPid(stack: StackProcess): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === stack.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('ssh-proxy/main.ts'))
        return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return null;
}

/** Kills the proxy every `everyMs` until `done()` holds or `maxKills` is reached; resolves with the number of kills. */
export async function killProxyRepeatedly(
  stack: StackProcess,
  options: { everyMs: number; firstAfterMs: number; maxKills: number; done: () => boolean },
): Promise<number> {
  let kills = 0;
  await sleep(options.firstAfterMs);
  while (!options.done() && kills < options.maxKills) {
    const pid = proxyPid(stack);
    if (pid !== null) {
      process.kill(pid, 'SIGKILL');
      kills += 1;
    }
    await sleep(options.everyMs);
  }
  return kills;
}

/** Creates a run over REST. */
export async function createRun(stack: StackProcess, config: Record<string, unknown>): Promise<RunSummary> {
  const response = await fetch(`${stack.url}/api/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(config),
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as RunSummary;
}

/** Waits until every run has left `running`/`queued`, or the time is up; returns their summaries. */
export async function waitSettled(stack: StackProcess, ids: string[], timeoutMs: number): Promise<RunSummary[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const runs = await Promise.all(
      ids.map(async (id) => (await (await fetch(`${stack.url}/api/runs/${id}`)).json()) as RunSummary),
    );
    if (runs.every((r) => r.status !== 'running' && r.status !== 'queued') || Date.now() > deadline) return runs;
    await sleep(250);
  }
}

/** Reads a run's whole log and counts what went wrong. */
export async function auditRun(stack: StackProcess, run: RunSummary): Promise<RunAudit> {
  const events: RunEvent[] = [];
  for (let since: number | null = 0; since !== null; ) {
    const page = (await (await fetch(`${stack.url}/api/runs/${run.id}/events?since=${since}&limit=1000`)).json()) as {
      events: RunEvent[];
      nextSince: number | null;
    };
    events.push(...page.events);
    since = page.nextSince;
  }
  const seqs = events.map((e) => e.seq);
  const solved = events.flatMap((e) => (e.type === 'level_complete' ? [e.level] : []));
  const commandIds = events.flatMap((e) => (e.type === 'command' ? [e.commandId] : []));
  return {
    id: run.id,
    status: run.status,
    events: events.length,
    gaps: seqs.filter((seq, i) => seq !== i + 1).length,
    repeats: seqs.length - new Set(seqs).size,
    levelsTwice: solved.length - new Set(solved).size,
    commandsTwice: commandIds.length - new Set(commandIds).size,
    otherErrors: events.flatMap((e) =>
      e.type === 'error' && e.code !== 'proxy_retry' ? [`${e.code}: ${e.message}`] : [],
    ),
    pauses: events.filter((e) => e.type === 'user_action_required').length,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
