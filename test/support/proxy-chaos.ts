// Runs baseline runs on a real stack while its proxy is killed (SIGKILL) again and again, and checks
// each run's log for what a kill could break: gaps, repeats, a level solved twice, a command run
// twice, an error other than a proxy retry. Shared by the e2e fault test and bench/chaos.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { CommandLogEntry } from '../../practice/command-log.ts';
import { readCommandLog } from '../../practice/command-log.ts';
import { isLostOutput } from '../../schema/lost-command.ts';
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
  /**
   * From the range's own log (PRACTICE_COMMAND_LOG), for a run in its private world: commands the target ran
   * more often than the run announced them (a command sent again after a proxy died), commands whose output
   * the run recorded but the target never logged (the log must see what ran), and commands reported lost.
   */
  target?: { ranTwice: number; unlogged: number; lost: number; logged: number; twice: string[] };
  otherErrors: string[];
  pauses: number;
  /** The level of the run's last pause, or null. */
  pausedAt: number | null;
};

/** The pids of the stack's proxies: the children of `npm start` running ssh-proxy/main.ts (one, or PROXIES=N). */
export function proxyPids(stack: StackProcess): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === stack.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('ssh-proxy/main.ts'))
        pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids.sort((a, b) => a - b);
}

/** The pid of the stack's proxy (the first, with several). */
export function proxyPid(stack: StackProcess): number | null {
  return proxyPids(stack)[0] ?? null;
}

/** One SIGKILL: when it was sent, and the pid it hit. */
export type Kill = { at: number; pid: number };

/**
 * Kills a proxy every `everyMs` until `done()` holds or `maxKills` is reached, each time the next of those
 * running (in turn, so with several proxies each is killed); resolves with the kills.
 */
export async function killProxyRepeatedly(
  stack: StackProcess,
  options: { everyMs: number; firstAfterMs: number; maxKills: number; done: () => boolean },
): Promise<Kill[]> {
  const kills: Kill[] = [];
  await sleep(options.firstAfterMs);
  while (!options.done() && kills.length < options.maxKills) {
    const pids = proxyPids(stack);
    const pid = pids[kills.length % Math.max(1, pids.length)];
    if (pid !== undefined) {
      process.kill(pid, 'SIGKILL');
      kills.push({ at: Date.now(), pid });
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

/** A run's whole log, page by page, from the stack at `url`. */
export async function runEvents(url: string, id: string): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for (let since: number | null = 0; since !== null; ) {
    const page = (await (await fetch(`${url}/api/runs/${id}/events?since=${since}&limit=1000`)).json()) as {
      events: RunEvent[];
      nextSince: number | null;
    };
    events.push(...page.events);
    since = page.nextSince;
  }
  return events;
}

/** Reads a run's whole log and counts what went wrong; with the range's command log, also on the target. */
export async function auditRun(stack: StackProcess, run: RunSummary, rangeLog?: CommandLogEntry[]): Promise<RunAudit> {
  const events = await runEvents(stack.url, run.id);
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
    ...(rangeLog
      ? {
          target: onTarget(
            events,
            rangeLog.filter((e) => e.world === run.id),
          ),
        }
      : {}),
    otherErrors: events.flatMap((e) =>
      e.type === 'error' && e.code !== 'proxy_retry' ? [`${e.code}: ${e.message}`] : [],
    ),
    pauses: events.filter((e) => e.type === 'user_action_required').length,
    pausedAt: events.findLast((e) => e.type === 'user_action_required')?.level ?? null,
  };
}

/** How a run's commands compare with what the target logged in the run's world (commands compared as text). */
function onTarget(events: RunEvent[], logged: CommandLogEntry[]): NonNullable<RunAudit['target']> {
  const announced = new Map<string, number>();
  const answered = new Map<string, number>();
  const text = new Map<string, string>();
  let lost = 0;
  for (const e of events) {
    if (e.type === 'command') {
      text.set(e.commandId, e.command);
      announced.set(e.command, (announced.get(e.command) ?? 0) + 1);
    }
    if (e.type === 'output') {
      if (isLostOutput(e.stderr)) lost += 1;
      else {
        const command = text.get(e.commandId) ?? '';
        answered.set(command, (answered.get(command) ?? 0) + 1);
      }
    }
  }
  const ran = new Map<string, number>();
  for (const entry of logged) ran.set(entry.command, (ran.get(entry.command) ?? 0) + 1);
  let ranTwice = 0;
  const twice: string[] = [];
  for (const [command, times] of ran) {
    const extra = Math.max(0, times - (announced.get(command) ?? 0));
    ranTwice += extra;
    if (extra) twice.push(`${command} (${times} on the target, ${announced.get(command) ?? 0} in the log)`);
  }
  let unlogged = 0;
  for (const [command, times] of answered) unlogged += Math.max(0, times - (ran.get(command) ?? 0));
  return { ranTwice, unlogged, lost, logged: logged.length, twice };
}

/** The range's command log, read from its file (empty before the first command). */
export function readRangeLog(path: string): CommandLogEntry[] {
  return existsSync(path) ? readCommandLog(readFileSync(path, 'utf8')) : [];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
