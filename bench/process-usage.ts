// Peak resident memory and CPU time of a process tree, read from /proc: for the stack benchmark, each
// program of the stack (workerd, wrangler, the proxy, the range) by name.
import { readdirSync, readFileSync } from 'node:fs';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** Every live descendant of `root` with its parent's pid. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    // The command name in parentheses may hold spaces; the ppid is the second field after it.
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
    if (Number.isFinite(ppid)) parents.set(Number(entry), ppid);
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents)
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
}

/** A short name for a stack process from its command line. */
function nameOf(pid: number): string {
  const cmd = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ');
  // The worker with its Durable Objects listens on a port wrangler picks (entry=…:0). With
  // WORKER_INSPECTOR_PORT set, wrangler's relay runs too, a second workerd on WORKER_PORT that every
  // request and socket message passes through; without it, scripts/worker-front.ts (in the wrangler
  // process) holds WORKER_PORT instead.
  if (cmd.includes('workerd')) return /--socket-addr=entry=[^ ]*:0(\s|$)/.test(cmd) ? 'workerd' : 'workerd (dev relay)';
  if (cmd.includes('ssh-proxy/main.ts')) return 'proxy';
  if (cmd.includes('practice/main.ts')) return 'range';
  if (cmd.includes('wrangler') || cmd.includes('scripts/worker-dev.ts')) return 'wrangler';
  if (cmd.includes('esbuild')) return 'esbuild';
  return cmd.split(' ')[0]?.split('/').pop() || `pid ${pid}`;
}

const rssMiB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '')?.[1] ?? 0) / 1024;

/** Samples the tree under `root` every `everyMs` until stopped; returns each name's peak (several workerd add up). */
export function sampleMemory(root: number, everyMs = 200): { stop: () => Map<string, number> } {
  const peaks = new Map<string, number>();
  const sample = () => {
    const now = new Map<string, number>();
    for (const pid of descendants(root)) now.set(nameOf(pid), (now.get(nameOf(pid)) ?? 0) + rssMiB(pid));
    for (const [name, mib] of now) peaks.set(name, Math.max(peaks.get(name) ?? 0, mib));
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

/** Clock ticks per second of /proc/<pid>/stat's times: USER_HZ, 100 on Linux. */
const TICKS = 100;

/** CPU seconds (user + system) each program of the tree has used so far; several workerd add up. */
export function cpuSeconds(root: number): Map<string, number> {
  const used = new Map<string, number>();
  for (const pid of descendants(root)) {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) continue;
    // utime and stime are fields 14 and 15; counted from the field after the command's ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS;
    used.set(nameOf(pid), (used.get(nameOf(pid)) ?? 0) + seconds);
  }
  return used;
}

/** CPU each program used between two readings, busiest first, as "name 0.42" in cores (seconds per second). */
export function coresBetween(before: Map<string, number>, after: Map<string, number>, seconds: number): string {
  return [...after]
    .map(([name, s]) => [name, (s - (before.get(name) ?? 0)) / seconds] as const)
    .filter(([, cores]) => cores >= 0.01)
    .sort((a, b) => b[1] - a[1])
    .map(([name, cores]) => `${name} ${cores.toFixed(2)}`)
    .join(', ');
}
