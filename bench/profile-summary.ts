// bench/profile-summary: reads V8 .cpuprofile files (node --cpu-prof, or the worker's profile taken
// through wrangler dev's inspector by bench/stack --profile) and prints where the time went: self
// time per function and per source file, busiest first. Usage: node bench/profile-summary.ts FILE… [--top 25]
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const TOP = Number(values.top);

/** Self time in ms per key, from the samples and the time between them. */
function selfTimes(profile: Profile, key: (node: ProfileNode) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const k = key(node);
    times.set(k, (times.get(k) ?? 0) + ms);
  });
  return times;
}

/** A readable source name: the project's own path, or the package a file comes from. */
function sourceOf(url: string, name = ''): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `pkg ${pkg[1]}`;
  const own = /\/(schema|worker|ssh-proxy|practice|bench|scripts|test)\/(.+)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url.startsWith('node:') ? url : basename(url);
}

function table(title: string, times: Map<string, number>, total: number): void {
  console.log(`\n${title}`);
  for (const [k, ms] of [...times].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const total = (profile.endTime - profile.startTime) / 1000;
  const idle = selfTimes(profile, (n) => n.callFrame.functionName).get('(idle)') ?? 0;
  console.log(`${file}: ${total.toFixed(0)} ms profiled, ${(total - idle).toFixed(0)} ms busy`);
  table('by source', selfTimes(profile, (n) => sourceOf(n.callFrame.url, n.callFrame.functionName)), total);
  table('by function', selfTimes(profile, (n) => `${n.callFrame.functionName || '(anonymous)'}  ${sourceOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`), total);
}
